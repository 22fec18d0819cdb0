import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/shell/page-header';
import { useCurrentUser } from '../../../lib/auth';
import { notifySuccess } from '../../../lib/notify';
import { canEdit } from '../../../lib/roles';
import { useDashboards } from '../api/get-dashboards';
import { useSaveDashboard } from '../api/save-dashboard';
import { DashboardGrid } from './dashboard-grid';
import {
  DashboardEditToolbar,
  DashboardEmptyState,
  DashboardHeaderActions,
  DashboardTabs,
} from './dashboard-toolbars';
import { DashboardWidget } from './dashboard-widget';
import { useDashboardDialogs } from './use-dashboard-dialogs';
import { useDashboardSelection } from './use-dashboard-selection';
import { useShownDevices, useStartupRelease } from './use-shown-devices';
import { useWidgetDraft } from './use-widget-draft';

/**
 * /dashboard, the first screen after sign-in: the company's dashboards as tabs, the chosen one's widgets
 * in a 12-column grid. ROLE_ADMIN and ROLE_MAINUSER toggle edit mode: add, remove, move, resize and
 * configure widgets, create, rename and delete dashboards; saving PUTs the whole layout.
 */
export function DashboardsPage() {
  const { t } = useTranslation();
  const editable = canEdit(useCurrentUser()?.roles);
  const dashboards = useDashboards();
  const save = useSaveDashboard();
  const list = dashboards.data ?? [];
  const { current, draft, setDraft, select, clear } = useDashboardSelection(list);
  const editing = draft !== null;
  const widgets = draft ?? current?.widgets ?? [];
  const shown = useShownDevices(widgets);
  const markSettled = useStartupRelease({
    dashboardsFetched: dashboards.isFetched,
    tablesSettled: shown.settled,
    widgets: current?.widgets ?? [],
  });
  const edit = useWidgetDraft(setDraft);
  const dialogs = useDashboardDialogs({ save, select, clear, updateWidget: edit.updateWidget });

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

  return (
    <div className="flex flex-col gap-4" data-testid="dashboard-page" data-dashboard={current?.id}>
      <PageHeader
        title={t('page.dashboard')}
        actions={
          editable && (
            <DashboardHeaderActions
              editing={editing}
              current={current}
              saving={save.isPending}
              onCancel={() => setDraft(null)}
              onSave={saveLayout}
              onCreate={() => dialogs.openNameDialog(null)}
              onEdit={(dashboard) => setDraft(dashboard.widgets)}
            />
          )
        }
      />
      {list.length > 0 && <DashboardTabs list={list} currentId={current?.id} onSelect={select} />}
      {editing && current && (
        <DashboardEditToolbar
          onAdd={edit.addWidget}
          onRename={() => dialogs.openNameDialog(current)}
          onDelete={() => void dialogs.confirmDelete(current)}
        />
      )}
      {dashboards.isSuccess && list.length === 0 && <DashboardEmptyState />}
      {current && (
        <DashboardGrid
          key={current.id}
          widgets={widgets}
          editing={editing}
          onLayoutChange={edit.changeLayout}
          renderWidget={(widget) => (
            <DashboardWidget
              widget={widget}
              editing={editing}
              devices={shown.devices}
              loading={shown.loading}
              onSettled={markSettled}
              onSettings={() => dialogs.openSettings(widget)}
              onRemove={() => edit.removeWidget(widget.id)}
              onPeriodChange={(period) => edit.changePeriod(widget.id, period)}
            />
          )}
        />
      )}
    </div>
  );
}
