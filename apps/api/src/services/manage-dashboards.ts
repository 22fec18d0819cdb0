/**
 * Dashboards of the acting company (spec sections 2, 3, 6, 7): everyone in the company reads them;
 * ROLE_ADMIN and ROLE_MAINUSER create, edit and delete them (spec: edit dashboard; else 90006). A PUT with
 * `widgets` replaces the whole layout in one transaction with the checks, so a refused widget (422) or a
 * failed write (98) leaves the saved layout exactly as it was. Codes: 96 not found (also for another
 * company's id), 97/98/99 create/update/delete failed, 422 input.
 */
import type { Db, Queryable } from '@iot/db';
import {
  type DashboardRecord,
  deleteDashboard,
  findDashboard,
  insertDashboard,
  listDashboards,
  ownedDeviceIds,
  recordAuditEvent,
  replaceWidgets,
  updateDashboard,
  type WidgetInput,
  withTenant,
} from '@iot/db';
import { hasModule, isApiError, rule } from '@iot/domain';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';
import { refuseAtLimit } from './check-limits';
import { checkWidgets, type WidgetBody, widgetDeviceIds } from './check-widgets';

export interface DashboardInput {
  name?: string | null;
  position?: number;
  widgets?: WidgetBody[];
}

const DASHBOARD_RULES = { name: ['required', rule.maxLength(255)] } as const;

type FailCode = 'DASHBOARD_CREATE_FAILED' | 'DASHBOARD_UPDATE_FAILED' | 'DASHBOARD_DELETE_FAILED';

function requireManager(auth: AuthContext): void {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_DASHBOARDS');
}

/** Refuses device ids that are not the company's devices (unknown and foreign look the same). */
async function refuseForeignDevices(tx: Queryable, auth: AuthContext, widgets: readonly WidgetInput[]) {
  const byPath = widgetDeviceIds(widgets);
  const all = [...new Set([...byPath.values()].flat())];
  const owned = new Set(await ownedDeviceIds(tx, auth.companyId, all));
  const fields: Record<string, { key: string }> = {};
  for (const [path, ids] of byPath)
    if (ids.some((id) => !owned.has(id))) fields[path] = { key: 'error.unknown' };
  if (Object.keys(fields).length > 0) throw apiError('INPUT_ERROR', { fields });
}

async function write<T>(
  db: Db,
  auth: AuthContext,
  code: FailCode,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    return await withTenant(db, auth.companyId, fn);
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError(code);
  }
}

function checkName(name: string | null | undefined, partial: boolean): string | undefined {
  if (name === undefined && partial) return undefined;
  const trimmed = (name ?? '').trim();
  validateBody({ name: trimmed }, DASHBOARD_RULES);
  return trimmed;
}

export function listCompanyDashboards(db: Db, auth: AuthContext): Promise<DashboardRecord[]> {
  return withTenant(db, auth.companyId, (tx) => listDashboards(tx, auth.companyId));
}

export async function getCompanyDashboard(db: Db, auth: AuthContext, id: number): Promise<DashboardRecord> {
  const found = await withTenant(db, auth.companyId, (tx) => findDashboard(tx, auth.companyId, id));
  if (!found) throw apiError('DASHBOARD_NOT_FOUND');
  return found;
}

/** A map widget needs the map view module (27 without it; issue #27). */
function refuseUnlicensedWidgets(auth: AuthContext, widgets: readonly { type: string }[]): void {
  if (
    widgets.some((w) => w.type === 'map') &&
    !hasModule(auth.realCompanyId, auth.company.modules, 'map_view')
  )
    throw apiError('MODULE_NOT_LICENSED', { module: 'map_view' });
}

export async function createDashboard(
  db: Db,
  auth: AuthContext,
  input: DashboardInput,
): Promise<DashboardRecord> {
  requireManager(auth);
  const name = checkName(input.name, false) ?? '';
  const widgets = checkWidgets(input.widgets ?? []);
  refuseUnlicensedWidgets(auth, widgets);
  return write(db, auth, 'DASHBOARD_CREATE_FAILED', async (tx) => {
    await refuseForeignDevices(tx, auth, widgets);
    await refuseAtLimit(tx, auth.companyId, 'max_dashboards');
    const id = await insertDashboard(tx, auth.companyId, {
      name,
      ...(input.position === undefined ? {} : { position: input.position }),
      createdBy: auth.user.id,
    });
    await replaceWidgets(tx, auth.companyId, id, widgets);
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'dashboard.create',
      details: { dashboard_id: id },
    });
    const created = await findDashboard(tx, auth.companyId, id);
    if (!created) throw apiError('DASHBOARD_CREATE_FAILED');
    return created;
  });
}

/** Name and position change when given; `widgets` (when given) becomes the whole layout. */
export async function updateCompanyDashboard(
  db: Db,
  auth: AuthContext,
  id: number,
  input: DashboardInput,
): Promise<DashboardRecord> {
  requireManager(auth);
  const name = checkName(input.name, true);
  const widgets = input.widgets === undefined ? undefined : checkWidgets(input.widgets);
  if (widgets) refuseUnlicensedWidgets(auth, widgets);
  return write(db, auth, 'DASHBOARD_UPDATE_FAILED', async (tx) => {
    // The update locks the dashboard row first: two saves at once replace the layout one after the other.
    const changes = {
      ...(name === undefined ? {} : { name }),
      ...(input.position === undefined ? {} : { position: input.position }),
    };
    if (!(await updateDashboard(tx, auth.companyId, id, changes))) throw apiError('DASHBOARD_NOT_FOUND');
    if (widgets !== undefined) {
      await refuseForeignDevices(tx, auth, widgets);
      await replaceWidgets(tx, auth.companyId, id, widgets);
    }
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'dashboard.update',
      details: { dashboard_id: id, widgets: widgets?.length ?? null },
    });
    const updated = await findDashboard(tx, auth.companyId, id);
    if (!updated) throw apiError('DASHBOARD_NOT_FOUND');
    return updated;
  });
}

export async function deleteCompanyDashboard(db: Db, auth: AuthContext, id: number): Promise<void> {
  requireManager(auth);
  await write(db, auth, 'DASHBOARD_DELETE_FAILED', async (tx) => {
    if (!(await deleteDashboard(tx, auth.companyId, id))) throw apiError('DASHBOARD_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'dashboard.delete',
      details: { dashboard_id: id },
    });
  });
}
