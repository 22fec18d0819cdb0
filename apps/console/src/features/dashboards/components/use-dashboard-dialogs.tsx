import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteDashboard } from '../api/delete-dashboard';
import type { useSaveDashboard } from '../api/save-dashboard';
import type { Dashboard, Widget } from '../types';
import { SettingsWithDevices } from './lazy-widgets';

// The form library (react-hook-form) loads with the first name dialog, not with the first screen.
const DashboardNameForm = lazy(() =>
  import('./dashboard-name-form').then((m) => ({ default: m.DashboardNameForm })),
);

/**
 * The dashboard page's dialogs: create or rename a dashboard (a new one is then shown), confirm its
 * deletion, and a widget's settings (saved into the draft, not yet to the server).
 */
export function useDashboardDialogs({
  save,
  select,
  clear,
  updateWidget,
}: {
  save: ReturnType<typeof useSaveDashboard>;
  select: (id: number) => void;
  clear: () => void;
  updateWidget: (widget: Widget) => void;
}) {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const remove = useDeleteDashboard();

  const openNameDialog = (dashboard: Dashboard | null) =>
    overlay.openDialog({
      title: dashboard ? t('dashboards.rename') : t('dashboards.create'),
      testId: 'edit-dashboard-dialog',
      render: (close) => (
        <Suspense fallback={null}>
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
        </Suspense>
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
        clear();
        notifySuccess(t('dashboards.deleted'));
      },
    });
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
              updateWidget(next);
              close();
            }}
          />
        </Suspense>
      ),
    });

  return { openNameDialog, confirmDelete, openSettings };
}
