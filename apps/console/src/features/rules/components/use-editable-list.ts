import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ConfirmRequest, useOverlay } from '../../../components/shell/overlay-host';
import { useCurrentUser } from '../../../lib/auth';
import { canEdit } from '../../../lib/roles';

/**
 * The state every device list drawer of this feature shares (rules, sensor checks, virtual fields):
 * whether the user may change anything, which item is open in the editor (`'new'` for a new one,
 * `null` for the list), and the delete that asks first.
 */
export function useEditableList<T extends { id: number }>({
  remove,
  confirmDelete,
}: {
  remove: { mutate: (id: number) => void };
  /** Title, message and test id of the confirmation; the destructive "Delete" button is shared. */
  confirmDelete: (item: T) => Omit<ConfirmRequest, 'confirmLabel' | 'destructive'>;
}) {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const editable = canEdit(useCurrentUser()?.roles);
  const [editing, setEditing] = useState<T | 'new' | null>(null);

  const askAndDelete = async (item: T) => {
    const ok = await overlay.confirm({
      ...confirmDelete(item),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (ok) remove.mutate(item.id);
  };

  return {
    editable,
    editing,
    startNew: () => setEditing('new'),
    startEdit: (item: T) => setEditing(item),
    closeEditor: () => setEditing(null),
    askAndDelete,
  };
}
