import { EyeIcon, PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { SheetBody } from '../../../components/ui/sheet';

export interface EditableListDrawerProps<T extends { id: number }> {
  /** data-testid of the drawer body. */
  testId: string;
  /** Prefix of the item test ids: `<prefix>-add`, `<prefix>-<id>`, `<prefix>-edit-<id>`, `<prefix>-delete-<id>`. */
  testIdPrefix: string;
  title: string;
  addLabel: string;
  items: readonly T[];
  /** While the list loads, the empty line says "loading" instead of `emptyText`. */
  isPending: boolean;
  emptyText: string;
  emptyTestId?: string;
  editable: boolean;
  /**
   * A note shown to users who may not edit; when given, the body also carries `data-read-only`.
   * Only the rules drawer has one (its items can still be opened, read-only).
   */
  readOnlyNotice?: { text: string; testId: string };
  /** Label of the open button for users who may not edit (with an eye icon); else always "Edit". */
  viewLabel?: string;
  deletePending: boolean;
  onAdd: () => void;
  onEdit: (item: T) => void;
  onDelete: (item: T) => void;
  /** The item's own summary, left of the edit and delete buttons. */
  renderItem: (item: T) => ReactNode;
}

/** The list half of a device drawer: title with add button, empty or loading line, items with edit/delete. */
export function EditableListDrawer<T extends { id: number }>({
  testId,
  testIdPrefix,
  title,
  addLabel,
  items,
  isPending,
  emptyText,
  emptyTestId,
  editable,
  readOnlyNotice,
  viewLabel,
  deletePending,
  onAdd,
  onEdit,
  onDelete,
  renderItem,
}: EditableListDrawerProps<T>) {
  const { t } = useTranslation();
  const viewOnly = !editable && viewLabel !== undefined;
  return (
    <SheetBody
      className="flex flex-col gap-3 pb-4"
      data-testid={testId}
      data-read-only={readOnlyNotice ? !editable : undefined}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        {editable && (
          <Button size="sm" onClick={onAdd} data-testid={`${testIdPrefix}-add`}>
            <PlusIcon />
            {addLabel}
          </Button>
        )}
      </div>
      {!editable && readOnlyNotice && (
        <p className="text-xs text-muted-foreground" data-testid={readOnlyNotice.testId}>
          {readOnlyNotice.text}
        </p>
      )}
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid={emptyTestId}>
          {isPending ? t('common.loading') : emptyText}
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {items.map((item) => (
            <li
              key={item.id}
              className="flex items-start justify-between gap-2 rounded-lg border p-3"
              data-testid={`${testIdPrefix}-${item.id}`}
            >
              <div className="min-w-0">{renderItem(item)}</div>
              <div className="flex shrink-0 gap-1">
                <Button
                  size="icon"
                  variant="ghost"
                  aria-label={viewOnly ? viewLabel : t('common.edit')}
                  onClick={() => onEdit(item)}
                  data-testid={`${testIdPrefix}-edit-${item.id}`}
                >
                  {viewOnly ? <EyeIcon /> : <PencilIcon />}
                </Button>
                {editable && (
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={t('common.delete')}
                    disabled={deletePending}
                    onClick={() => onDelete(item)}
                    data-testid={`${testIdPrefix}-delete-${item.id}`}
                  >
                    <Trash2Icon className="text-destructive" />
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </SheetBody>
  );
}
