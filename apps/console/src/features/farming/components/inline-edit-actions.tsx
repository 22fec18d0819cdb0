import { CheckIcon, XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { TableCell } from '../../../components/ui/table';

/** Save and cancel of a table row edited in place (parcels, own soils and plants). */
export function InlineEditActions({
  canSave,
  onSave,
  onCancel,
  saveTestId,
}: {
  canSave: boolean;
  onSave: () => void;
  onCancel: () => void;
  saveTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <TableCell className="flex gap-1">
      <Button
        size="icon"
        variant="ghost"
        aria-label={t('common.save')}
        disabled={!canSave}
        onClick={onSave}
        data-testid={saveTestId}
      >
        <CheckIcon />
      </Button>
      <Button size="icon" variant="ghost" aria-label={t('common.cancel')} onClick={onCancel}>
        <XIcon />
      </Button>
    </TableCell>
  );
}
