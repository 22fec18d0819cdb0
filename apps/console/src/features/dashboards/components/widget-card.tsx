import { GripVerticalIcon, SettingsIcon, Trash2Icon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import type { Widget } from '../types';

/** A widget's frame: title, and while editing a drag handle, its settings and remove. */
export function WidgetCard({
  widget,
  editing,
  onSettings,
  onRemove,
  children,
}: {
  widget: Widget;
  editing: boolean;
  onSettings: () => void;
  onRemove: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex h-full flex-col overflow-hidden rounded-xl border bg-card shadow-sm">
      <div className="flex items-center gap-1 border-b px-3 py-1.5">
        {editing && (
          <span
            className="widget-drag-handle cursor-move text-muted-foreground"
            data-testid={`widget-${widget.id}-handle`}
          >
            <GripVerticalIcon className="size-4" />
          </span>
        )}
        <h2 className="flex-1 truncate text-sm font-medium" data-testid={`widget-${widget.id}-title`}>
          {widget.title || t(`dashboards.type.${widget.type}`)}
        </h2>
        {editing && (
          <>
            <Button
              size="icon"
              variant="ghost"
              className="size-7"
              aria-label={t('dashboards.widget-settings')}
              onClick={onSettings}
              data-testid={`widget-${widget.id}-settings`}
            >
              <SettingsIcon />
            </Button>
            <Button
              size="icon"
              variant="ghost"
              className="size-7"
              aria-label={t('dashboards.widget-remove')}
              onClick={onRemove}
              data-testid={`widget-${widget.id}-remove`}
            >
              <Trash2Icon />
            </Button>
          </>
        )}
      </div>
      <div className="min-h-0 flex-1 overflow-auto p-2">{children}</div>
    </div>
  );
}
