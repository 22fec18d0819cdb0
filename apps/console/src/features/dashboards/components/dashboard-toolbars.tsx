import type { WidgetType } from '@iot/domain';
import {
  ChartLineIcon,
  LayoutDashboardIcon,
  LockIcon,
  MapIcon,
  PencilIcon,
  PlusIcon,
  SaveIcon,
  TableIcon,
  Trash2Icon,
  XIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useCurrentUser } from '../../../lib/auth';
import { hasModule } from '../../../lib/guards';
import { cn } from '../../../lib/utils';
import type { Dashboard } from '../types';

const ADD_TYPES: { type: WidgetType; icon: typeof TableIcon }[] = [
  { type: 'table', icon: TableIcon },
  { type: 'line_chart', icon: ChartLineIcon },
  { type: 'map', icon: MapIcon },
];

/** The page header's buttons: cancel and save while editing, else create and edit. */
export function DashboardHeaderActions({
  editing,
  current,
  saving,
  onCancel,
  onSave,
  onCreate,
  onEdit,
}: {
  editing: boolean;
  current: Dashboard | undefined;
  saving: boolean;
  onCancel: () => void;
  onSave: () => void;
  onCreate: () => void;
  onEdit: (dashboard: Dashboard) => void;
}) {
  const { t } = useTranslation();
  if (editing)
    return (
      <>
        <Button variant="outline" onClick={onCancel} data-testid="dashboard-cancel">
          <XIcon />
          {t('common.cancel')}
        </Button>
        <Button onClick={onSave} disabled={saving} data-testid="dashboard-save">
          <SaveIcon />
          {t('common.save')}
        </Button>
      </>
    );
  return (
    <>
      <Button variant="outline" onClick={onCreate} data-testid="dashboard-create">
        <PlusIcon />
        {t('dashboards.create')}
      </Button>
      {current && (
        <Button onClick={() => onEdit(current)} data-testid="dashboard-edit">
          <PencilIcon />
          {t('dashboards.edit')}
        </Button>
      )}
    </>
  );
}

/** The company's dashboards as tabs. */
export function DashboardTabs({
  list,
  currentId,
  onSelect,
}: {
  list: readonly Dashboard[];
  currentId: number | undefined;
  onSelect: (id: number) => void;
}) {
  return (
    <div className="flex flex-wrap gap-1 border-b" role="tablist" data-testid="dashboard-tabs">
      {list.map((d) => (
        <button
          key={d.id}
          type="button"
          role="tab"
          aria-selected={d.id === currentId}
          onClick={() => onSelect(d.id)}
          className={cn(
            '-mb-px border-b-2 px-3 py-2 text-sm',
            d.id === currentId ? 'border-primary font-medium' : 'border-transparent text-muted-foreground',
          )}
          data-testid={`dashboard-tab-${d.id}`}
        >
          {d.name}
        </button>
      ))}
    </div>
  );
}

/** Edit mode's toolbar: add a widget, rename or delete the dashboard. */
export function DashboardEditToolbar({
  onAdd,
  onRename,
  onDelete,
}: {
  onAdd: (type: WidgetType) => void;
  onRename: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const mapView = hasModule(useCurrentUser(), 'map_view');
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-lg border bg-muted/50 p-2"
      data-testid="dashboard-toolbar"
    >
      {ADD_TYPES.map(({ type, icon: Icon }) => {
        // A map widget is the map view module's: offered locked, with the hint, without it (issue #27).
        const locked = type === 'map' && !mapView;
        return (
          <Button
            key={type}
            variant="outline"
            size="sm"
            onClick={() => onAdd(type)}
            disabled={locked}
            title={locked ? t('dashboards.locked-map') : undefined}
            data-testid={`widget-add-${type}`}
            data-locked={locked || undefined}
          >
            {locked ? <LockIcon /> : <Icon />}
            {t(`dashboards.add.${type}`)}
          </Button>
        );
      })}
      <span className="flex-1" />
      <Button variant="outline" size="sm" onClick={onRename} data-testid="dashboard-rename">
        <PencilIcon />
        {t('dashboards.rename')}
      </Button>
      <Button variant="outline" size="sm" onClick={onDelete} data-testid="dashboard-delete">
        <Trash2Icon />
        {t('dashboards.delete')}
      </Button>
    </div>
  );
}

/** Shown when the company has no dashboard yet. */
export function DashboardEmptyState() {
  const { t } = useTranslation();
  return (
    <div
      className="flex flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center text-muted-foreground"
      data-testid="dashboard-empty"
    >
      <LayoutDashboardIcon className="size-10" />
      <p>{t('dashboards.empty')}</p>
    </div>
  );
}
