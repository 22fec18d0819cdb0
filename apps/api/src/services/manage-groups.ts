/**
 * Device groups (spec sections 2, 3, 6, 7): everyone in the company reads them; ROLE_ADMIN and
 * ROLE_MAINUSER add, edit and delete them (else 90005). Names are required (422) and unique per company,
 * case-insensitively (49). `device_ids` makes exactly those devices the group's: listed devices are taken
 * from any other group, the group's other devices are unassigned; an id that is not one of the company's
 * devices refuses the whole write (51, nothing changed). Another company's group id is 46 (404).
 */
import type { Db, Queryable } from '@iot/db';
import {
  deleteGroup,
  findGroup,
  type GroupRecord,
  groupNameTaken,
  insertGroup,
  listGroups,
  lockCompanyGroups,
  ownedDeviceIds,
  recordAuditEvent,
  setGroupDevices,
  updateGroup,
  withTenant,
} from '@iot/db';
import { FORM_RULES, isApiError, rule } from '@iot/domain';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export interface GroupInput {
  name?: string;
  description?: string | null;
  device_ids?: number[];
}

const GROUP_RULES = { ...FORM_RULES.group, description: [rule.maxLength(2000)] } as const;

function requireManager(auth: AuthContext): void {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_GROUPS');
}

function checkInput(input: GroupInput, partial: boolean): { name?: string; description?: string | null } {
  const values: Record<string, unknown> = {};
  if (input.name !== undefined || !partial) values.name = (input.name ?? '').trim();
  if (input.description != null) values.description = input.description;
  validateBody(values, GROUP_RULES, { partial });
  const out: { name?: string; description?: string | null } = {};
  if (values.name !== undefined) out.name = values.name as string;
  if (input.description !== undefined) {
    const text = input.description?.trim() ?? '';
    out.description = text === '' ? null : text;
  }
  return out;
}

async function assignDevices(
  tx: Queryable,
  auth: AuthContext,
  groupId: number,
  ids: number[],
): Promise<void> {
  const wanted = [...new Set(ids)];
  const owned = await ownedDeviceIds(tx, auth.companyId, wanted);
  if (owned.length !== wanted.length) {
    // Unknown and foreign ids look the same, so the answer does not tell whether a foreign id exists.
    const ownedSet = new Set(owned);
    throw apiError('GROUP_ASSIGN_DEVICES_FAILED', {
      fields: { device_ids: { key: 'error.unknown' } },
      device_ids: wanted.filter((id) => !ownedSet.has(id)),
    });
  }
  await setGroupDevices(tx, auth.companyId, groupId, wanted);
}

async function refuseTakenName(tx: Queryable, auth: AuthContext, name: string, exceptId: number | null) {
  if (await groupNameTaken(tx, auth.companyId, name, exceptId)) {
    throw apiError('GROUP_NAME_EXISTS', { fields: { name: { key: 'error.unknown' } } });
  }
}

/** Runs a write; any failure that is not already an API error becomes `code` (nothing leaks). */
async function write<T>(
  db: Db,
  auth: AuthContext,
  code: 'GROUP_CREATE_FAILED' | 'GROUP_UPDATE_FAILED' | 'GROUP_DELETE_FAILED',
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    return await withTenant(db, auth.companyId, async (tx) => {
      await lockCompanyGroups(tx, auth.companyId);
      return fn(tx);
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError(code);
  }
}

export function listCompanyGroups(db: Db, auth: AuthContext): Promise<GroupRecord[]> {
  return withTenant(db, auth.companyId, (tx) => listGroups(tx, auth.companyId));
}

export async function getCompanyGroup(db: Db, auth: AuthContext, id: number): Promise<GroupRecord> {
  const group = await withTenant(db, auth.companyId, (tx) => findGroup(tx, auth.companyId, id));
  if (!group) throw apiError('GROUP_NOT_FOUND');
  return group;
}

export async function createGroup(db: Db, auth: AuthContext, input: GroupInput): Promise<GroupRecord> {
  requireManager(auth);
  const fields = checkInput(input, false);
  const name = fields.name ?? '';
  return write(db, auth, 'GROUP_CREATE_FAILED', async (tx) => {
    await refuseTakenName(tx, auth, name, null);
    const id = await insertGroup(tx, auth.companyId, { name, description: fields.description ?? null });
    if (input.device_ids !== undefined) await assignDevices(tx, auth, id, input.device_ids);
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'group.create',
      details: { group_id: id },
    });
    const group = await findGroup(tx, auth.companyId, id);
    if (!group) throw apiError('GROUP_CREATE_FAILED');
    return group;
  });
}

export async function updateCompanyGroup(
  db: Db,
  auth: AuthContext,
  id: number,
  input: GroupInput,
): Promise<GroupRecord> {
  requireManager(auth);
  const fields = checkInput(input, true);
  return write(db, auth, 'GROUP_UPDATE_FAILED', async (tx) => {
    if (fields.name !== undefined) await refuseTakenName(tx, auth, fields.name, id);
    if (!(await updateGroup(tx, auth.companyId, id, fields))) throw apiError('GROUP_NOT_FOUND');
    if (input.device_ids !== undefined) await assignDevices(tx, auth, id, input.device_ids);
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'group.update',
      details: { group_id: id },
    });
    const group = await findGroup(tx, auth.companyId, id);
    if (!group) throw apiError('GROUP_NOT_FOUND');
    return group;
  });
}

/** Deletes the group; its devices stay, without a group. */
export async function deleteCompanyGroup(db: Db, auth: AuthContext, id: number): Promise<void> {
  requireManager(auth);
  await write(db, auth, 'GROUP_DELETE_FAILED', async (tx) => {
    if (!(await deleteGroup(tx, auth.companyId, id))) throw apiError('GROUP_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'group.delete',
      details: { group_id: id },
    });
  });
}
