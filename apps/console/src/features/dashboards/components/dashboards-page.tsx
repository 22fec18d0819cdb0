import type { WidgetType } from '@iot/domain';
import { useQuery } from '@tanstack/react-query';
import {
  ChartLineIcon,
  LayoutDashboardIcon,
  MapIcon,
  PencilIcon,
  PlusIcon,
  SaveIcon,
  TableIcon,
  Trash2Icon,
  XIcon,
} from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { preloadDeviceMap } from '../../../components/map/lazy-device-map';
import { useOverlay } from '../../../components/shell/overlay-host';
import { PageHeader } from '../../../components/shell/page-header';
import { Button } from '../../../components/ui/button';
import { useCurrentUser } from '../../../lib/auth';
import { devicesByIdsQueryOptions, useDevices } from '../../../lib/devices/get-devices';
import { notifySuccess } from '../../../lib/notify';
import { canEdit } from '../../../lib/roles';
import { releaseStartupDevices } from '../../../lib/startup-gate';
import { cn } from '../../../lib/utils';
import { useDeleteDashboard } from '../api/delete-dashboard';
import { useDashboards } from '../api/get-dashboards';
import { useSaveDashboard } from '../api/save-dashboard';
import { shownDeviceIds } from '../prefetch-widget-data';
import type { Dashboard, Widget } from '../types';
import { applyLayout, newWidget } from '../widget-layout';
import { DashboardGrid } from './dashboard-grid';
import { DashboardNameForm } from './dashboard-name-form';
import { MapWidget } from './map-widget';
import { TableWidget } from './table-widget';
import { WidgetCard } from './widget-card';

// uPlot and the settings forms load with the first chart or the first settings dialog, not with the
// first screen (the budget is 300 kB of gzipped JS).
const loadLineChart = () => import('./line-chart-widget');
const LineChartWidget = lazy(() => loadLineChart().then((m) => ({ default: m.LineChartWidget })));
const WidgetSettingsForm = lazy(() =>
  import('./widget-settings-form').then((m) => ({ default: m.WidgetSettingsForm })),
);

/** The settings form chooses among every device: the full list, loaded at start-up anyway. */
function SettingsWithDevices(props: Omit<Parameters<typeof WidgetSettingsForm>[0], 'devices'>) {
  const { t } = useTranslation();
  const devices = useDevices();
  if (!devices.data) return <p className="p-2 text-sm text-muted-foreground">{t('common.loading')}</p>;
  return <WidgetSettingsForm {...props} devices={devices.data} />;
}

/** Starts loading the chunks of these widgets (MapLibre and deck.gl for a map, uPlot for a chart). */
export function preloadWidgetChunks(widgets: readonly Widget[]): void {
  if (widgets.some((w) => w.type === 'map')) void preloadDeviceMap();
  if (widgets.some((w) => w.type === 'line_chart')) void loadLineChart();
}

/** Devices (and so the tables' latest values) refresh on this interval without reloading. */
const LIVE_REFRESH_MS = 30_000;

const ADD_TYPES: { type: WidgetType; icon: typeof TableIcon }[] = [
  { type: 'table', icon: TableIcon },
  { type: 'line_chart', icon: ChartLineIcon },
  { type: 'map', icon: MapIcon },
];

/**
 * /dashboard, the first screen after sign-in: the company's dashboards as tabs, the chosen one's widgets
 * in a 12-column grid. ROLE_ADMIN and ROLE_MAINUSER toggle edit mode: add, remove, move, resize and
 * configure widgets, create, rename and delete dashboards; saving PUTs the whole layout.
 */
export function DashboardsPage() {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const editable = canEdit(useCurrentUser()?.roles);
  const dashboards = useDashboards();
  const save = useSaveDashboard();
  const remove = useDeleteDashboard();
  const [params, setParams] = useSearchParams();
  const [draft, setDraft] = useState<Widget[] | null>(null);
  const [nextId, setNextId] = useState(-1);

  const list = dashboards.data ?? [];
  const wanted = Number(params.get('dashboard'));
  const current: Dashboard | undefined = list.find((d) => d.id === wanted) ?? list[0];
  const editing = draft !== null;
  const widgets = draft ?? current?.widgets ?? [];
  // Tables and charts get their few devices, the map its own lean list; latest values refresh without
  // reloading the page.
  const shownIds = useMemo(() => shownDeviceIds(widgets), [widgets]);
  const shown = useQuery({ ...devicesByIdsQueryOptions(shownIds), refetchInterval: LIVE_REFRESH_MS });
  const deviceList = shown.data ?? [];

  // The map and chart chunks start loading with the dashboards' answer, beside the widgets' data (the
  // route loader does the same for the first dashboard before the shell renders).
  useEffect(() => preloadWidgetChunks(widgets), [widgets]);

  // The start-up device list waits (route loader) until every widget of the first dashboard has its data
  // (a map: drawn with its devices, see MapWidget).
  const [settled, setSettled] = useState<ReadonlySet<number>>(() => new Set());
  const markSettled = useCallback(
    (id: number) => setSettled((prev) => (prev.has(id) ? prev : new Set(prev).add(id))),
    [],
  );
  const tablesSettled = shownIds.length === 0 || shown.isFetched;
  const firstScreenSettled =
    dashboards.isFetched &&
    tablesSettled &&
    (current?.widgets ?? []).every((w) => w.type === 'table' || settled.has(w.id));
  useEffect(() => {
    if (firstScreenSettled) releaseStartupDevices();
  }, [firstScreenSettled]);
  useEffect(() => releaseStartupDevices, []);

  const select = (id: number) => {
    setDraft(null);
    setParams({ dashboard: String(id) });
  };

  const openNameDialog = (dashboard: Dashboard | null) =>
    overlay.openDialog({
      title: dashboard ? t('dashboards.rename') : t('dashboards.create'),
      testId: 'edit-dashboard-dialog',
      render: (close) => (
        <DashboardNameForm
          name={dashboard?.name ?? ''}
          pending={save.isPending}
          onCancel={close}
          onSubmit={(name) =>
            save.mutate(
              { id: dashboard?.id ?? null, name },
              {
                onSuccess: (saved) => {
                  close();
                  notifySuccess(t('dashboards.saved'));
                  if (!dashboard) select(saved.id);
                },
              },
            )
          }
        />
      ),
    });

  const confirmDelete = async (dashboard: Dashboard) => {
    const ok = await overlay.confirm({
      title: t('dashboards.delete-title'),
      message: t('dashboards.delete-message', { name: dashboard.name }),
      confirmLabel: t('common.delete'),
      destructive: true,
      testId: 'dashboard-delete-confirm',
    });
    if (!ok) return;
    remove.mutate(dashboard.id, {
      onSuccess: () => {
        setDraft(null);
        setParams({});
        notifySuccess(t('dashboards.deleted'));
      },
    });
  };

  const addWidget = (type: WidgetType) => {
    setDraft((prev) => [...(prev ?? []), newWidget(type, prev ?? [], nextId, t(`dashboards.type.${type}`))]);
    setNextId((n) => n - 1);
  };

  const openSettings = (widget: Widget) =>
    overlay.openDialog({
      title: t('dashboards.widget-settings'),
      testId: 'widget-settings-dialog',
      render: (close) => (
        <Suspense fallback={null}>
          <SettingsWithDevices
            widget={widget}
            onCancel={close}
            onSave={(next) => {
              setDraft((prev) => (prev ?? []).map((w) => (w.id === next.id ? next : w)));
              close();
            }}
          />
        </Suspense>
      ),
    });

  const saveLayout = () => {
    if (!current || !draft) return;
    save.mutate(
      { id: current.id, widgets: draft },
      {
        onSuccess: () => {
          setDraft(null);
          notifySuccess(t('dashboards.saved'));
        },
      },
    );
  };

  const renderWidget = (widget: Widget) => (
    <WidgetCard
      widget={widget}
      editing={editing}
      onSettings={() => openSettings(widget)}
      onRemove={() => setDraft((prev) => (prev ?? []).filter((w) => w.id !== widget.id))}
    >
      {widget.type === 'table' && (
        <TableWidget
          settings={widget.settings}
          devices={deviceList}
          loading={shownIds.length > 0 && shown.isPending}
        />
      )}
      {widget.type === 'line_chart' && (
        <Suspense fallback={null}>
          <LineChartWidget
            // A changed period in edit mode is part of the layout that is saved.
            key={editing ? `edit-${widget.id}` : widget.id}
            widgetId={widget.id}
            settings={widget.settings}
            devices={deviceList}
            onSettled={markSettled}
            {...(editing
              ? {
                  onPeriodChange: (period) =>
                    setDraft((prev) =>
                      (prev ?? []).map((w) =>
                        w.id === widget.id && w.type === 'line_chart'
                          ? { ...w, settings: { ...w.settings, ...period } }
                          : w,
                      ),
                    ),
                }
              : {})}
          />
        </Suspense>
      )}
      {widget.type === 'map' && (
        <MapWidget widgetId={widget.id} settings={widget.settings} onSettled={markSettled} />
      )}
    </WidgetCard>
  );

  return (
    <div className="flex flex-col gap-4" data-testid="dashboard-page" data-dashboard={current?.id}>
      <PageHeader
        title={t('page.dashboard')}
        actions={
          editable &&
          (editing ? (
            <>
              <Button variant="outline" onClick={() => setDraft(null)} data-testid="dashboard-cancel">
                <XIcon />
                {t('common.cancel')}
              </Button>
              <Button onClick={saveLayout} disabled={save.isPending} data-testid="dashboard-save">
                <SaveIcon />
                {t('common.save')}
              </Button>
            </>
          ) : (
            <>
              <Button variant="outline" onClick={() => openNameDialog(null)} data-testid="dashboard-create">
                <PlusIcon />
                {t('dashboards.create')}
              </Button>
              {current && (
                <Button onClick={() => setDraft(current.widgets)} data-testid="dashboard-edit">
                  <PencilIcon />
                  {t('dashboards.edit')}
                </Button>
              )}
            </>
          ))
        }
      />
      {list.length > 0 && (
        <div className="flex flex-wrap gap-1 border-b" role="tablist" data-testid="dashboard-tabs">
          {list.map((d) => (
            <button
              key={d.id}
              type="button"
              role="tab"
              aria-selected={d.id === current?.id}
              onClick={() => select(d.id)}
              className={cn(
                '-mb-px border-b-2 px-3 py-2 text-sm',
                d.id === current?.id
                  ? 'border-primary font-medium'
                  : 'border-transparent text-muted-foreground',
              )}
              data-testid={`dashboard-tab-${d.id}`}
            >
              {d.name}
            </button>
          ))}
        </div>
      )}
      {editing && current && (
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg border bg-muted/50 p-2"
          data-testid="dashboard-toolbar"
        >
          {ADD_TYPES.map(({ type, icon: Icon }) => (
            <Button
              key={type}
              variant="outline"
              size="sm"
              onClick={() => addWidget(type)}
              data-testid={`widget-add-${type}`}
            >
              <Icon />
              {t(`dashboards.add.${type}`)}
            </Button>
          ))}
          <span className="flex-1" />
          <Button
            variant="outline"
            size="sm"
            onClick={() => openNameDialog(current)}
            data-testid="dashboard-rename"
          >
            <PencilIcon />
            {t('dashboards.rename')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => void confirmDelete(current)}
            data-testid="dashboard-delete"
          >
            <Trash2Icon />
            {t('dashboards.delete')}
          </Button>
        </div>
      )}
      {dashboards.isSuccess && list.length === 0 && (
        <div
          className="flex flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center text-muted-foreground"
          data-testid="dashboard-empty"
        >
          <LayoutDashboardIcon className="size-10" />
          <p>{t('dashboards.empty')}</p>
        </div>
      )}
      {current && (
        <DashboardGrid
          key={current.id}
          widgets={widgets}
          editing={editing}
          onLayoutChange={(layout) => setDraft((prev) => (prev ? applyLayout(prev, layout) : prev))}
          renderWidget={renderWidget}
        />
      )}
    </div>
  );
}
