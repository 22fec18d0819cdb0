/**
 * Parking areas (issue #25; spec sections 3, 6, 7, 8), behind the `parking` licence (the routes'
 * requireModule). Everyone in the company reads; ROLE_ADMIN and ROLE_MAINUSER add, edit and delete
 * (90070 otherwise). Every
 * device is checked before anything is written: not the company's (or unknown) 40004, not a parking
 * sensor of the area's kind (FIX: PARKINGSENSOR 8, AI: AI_PARKINGSENSOR 1024) 40014, already feeding
 * another area 40012. Another company's area is 40001 (not found). One transaction per use case.
 * `alarm_actions` are the actions of the area's alarm rule (trigger 'parking', migration 0037), checked
 * like a device rule's (422 with the field errors under `alarm_actions.<i>`); the rules worker runs them
 * for every parking alarm of the area.
 */
import type { ParkingAreaInput } from '@iot/contracts';
import type {
  Db,
  ParkingAreaFields,
  ParkingAreaRecord,
  Queryable,
  RuleActionRecord,
  RuleActionValues,
} from '@iot/db';
import {
  deleteParkingArea,
  findParkingArea,
  insertParkingArea,
  listParkingAlarmActions,
  listParkingAreas,
  lockCompanyParking,
  parkingDeviceCandidates,
  recordAuditEvent,
  recountParkingAreas,
  saveParkingAlarmActions,
  setParkingBays,
  updateParkingArea,
  withTenant,
} from '@iot/db';
import {
  FORM_RULES,
  isApiError,
  PARKING_AREA_ICONS,
  PARKING_AREA_TYPES,
  type ParkingAreaIcon,
  type ParkingAreaType,
  SENSOR_TYPE_CODES,
} from '@iot/domain';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';
import { type FieldErrors, prepareRuleAction } from './prepare-rule-action';

/** An area with the actions of its alarm rule. */
export type ParkingAreaView = ParkingAreaRecord & { alarmActions: RuleActionRecord[] };

/** Channels an area's alarm may use: a device rule's, without remote control (no device of its own). */
const ALARM_CHANNELS = new Set(['email', 'sms', 'voice_message', 'system', 'http']);

/** The alarm actions as rule_actions columns (null: absent, keep them); 422 with the field errors. */
function alarmActionInputs(input: ParkingAreaInput): RuleActionValues[] | null {
  if (input.alarm_actions === undefined) return null;
  const errors: FieldErrors = {};
  const out: RuleActionValues[] = [];
  input.alarm_actions.forEach((action, i) => {
    const prefix = `alarm_actions.${i}`;
    if (!ALARM_CHANNELS.has(action.channel)) {
      errors[`${prefix}.channel`] = { key: 'error.unknown' };
      return;
    }
    const prepared = prepareRuleAction(action, 0, prefix, errors);
    if (prepared) out.push(prepared);
  });
  if (Object.keys(errors).length > 0) throw apiError('INPUT_ERROR', { fields: errors });
  return out;
}

async function withActions(
  tx: Queryable,
  companyId: number,
  areas: ParkingAreaRecord[],
): Promise<ParkingAreaView[]> {
  const actions = await listParkingAlarmActions(
    tx,
    companyId,
    areas.map((a) => a.id),
  );
  return areas.map((a) => ({ ...a, alarmActions: actions.get(a.id) ?? [] }));
}

async function viewOf(tx: Queryable, companyId: number, id: number): Promise<ParkingAreaView | null> {
  const area = await findParkingArea(tx, companyId, id);
  return area ? ((await withActions(tx, companyId, [area]))[0] ?? null) : null;
}

type FailCode = 'PARKING_AREA_CREATE_FAILED' | 'PARKING_AREA_UPDATE_FAILED' | 'PARKING_AREA_DELETE_FAILED';

function requireManager(auth: AuthContext): void {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_PARKING');
}

const isWhole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);

/** The spec's own codes for its fields (40006 to 40010), then the form rules (422 for the name). */
function checkFields(input: ParkingAreaInput, bayCount: number | null): ParkingAreaFields {
  if (!(PARKING_AREA_TYPES as readonly string[]).includes(input.type))
    throw apiError('PARKING_AREA_TYPE_INVALID');
  const type = input.type as ParkingAreaType;
  const icon = input.icon ?? 'PS';
  if (!(icon in PARKING_AREA_ICONS)) throw apiError('PARKING_AREA_ICON_INVALID');
  // FIX: the capacity defaults to the bays; fewer slots than bays cannot be.
  const capacity = input.capacity ?? (type === 'FIX' ? bayCount : null);
  if (!isWhole(capacity) || capacity < 0 || capacity > 100_000 || (bayCount !== null && capacity < bayCount))
    throw apiError('PARKING_AREA_CAPACITY_INVALID');
  const max = input.max_parking_time ?? null;
  const grace = input.grace_period ?? 0;
  if ((max !== null && (!isWhole(max) || max <= 0)) || !isWhole(grace) || grace < 0)
    throw apiError('PARKING_AREA_MAX_TIME_INVALID');
  const size = input.area_size ?? null;
  if (size !== null && (!Number.isFinite(size) || size < 0)) throw apiError('PARKING_AREA_SIZE_INVALID');
  const name = (input.name ?? '').trim();
  validateBody({ name, capacity, max_parking_time: max ?? undefined }, FORM_RULES.parkingArea);
  const temporary = icon === 'TP';
  const validFrom = temporary ? (input.valid_from ?? null) : null;
  const validTo = temporary ? (input.valid_to ?? null) : null;
  if (validFrom && validTo && validTo < validFrom)
    throw apiError('INPUT_ERROR', { fields: { valid_to: { key: 'error.unknown' } } });
  return {
    name,
    description: input.description?.trim() || null,
    type,
    capacity,
    areaSizeM2: size,
    maxParkingMinutes: max,
    graceMinutes: grace,
    icon: icon as ParkingAreaIcon,
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    geometry: input.geometry ?? null,
    validFrom,
    validTo,
    alertFreeBelow: input.alert_free_below ?? null,
    alertCooldownMinutes: input.alert_cooldown_minutes ?? 15,
  };
}

interface BayInput {
  deviceId: number;
  label: string | null;
}

function bayInputs(input: ParkingAreaInput): BayInput[] | null {
  if (input.devices === undefined) return null;
  const seen = new Set<number>();
  const labels = new Set<string>();
  const bays: BayInput[] = [];
  for (const d of input.devices) {
    if (seen.has(d.device_id)) continue;
    seen.add(d.device_id);
    const label = d.label?.trim() || null;
    if (label !== null) {
      if (labels.has(label.toLowerCase()))
        throw apiError('INPUT_ERROR', { fields: { devices: { key: 'error.unknown' } }, label });
      labels.add(label.toLowerCase());
    }
    bays.push({ deviceId: d.device_id, label });
  }
  return bays;
}

/** 40004, 40014 and 40012, in that order, before anything is written. */
async function checkDevices(
  tx: Queryable,
  auth: AuthContext,
  areaId: number | null,
  type: ParkingAreaType,
  ids: readonly number[],
): Promise<void> {
  const found = await parkingDeviceCandidates(tx, auth.companyId, ids);
  const byId = new Map(found.map((d) => [d.id, d]));
  // Unknown and foreign ids look the same, so the answer does not tell whether a foreign id exists.
  const foreign = ids.filter((id) => !byId.has(id));
  if (foreign.length > 0) throw apiError('PARKING_AREA_OTHER_COMPANY', { device_ids: foreign });
  const code = type === 'FIX' ? SENSOR_TYPE_CODES.PARKINGSENSOR : SENSOR_TYPE_CODES.AI_PARKINGSENSOR;
  // Sensor type codes are bit flags (8, 1024).
  const wrong = found.filter((d) => d.sensorType === null || (d.sensorType & code) === 0).map((d) => d.id);
  if (wrong.length > 0) throw apiError('NOT_A_PARKING_SENSOR', { device_ids: wrong });
  const taken = found.filter((d) => d.areaId !== null && d.areaId !== areaId).map((d) => d.id);
  if (taken.length > 0) throw apiError('PARKING_SENSOR_ALREADY_ASSIGNED', { device_ids: taken });
}

async function write<T>(db: Db, auth: AuthContext, code: FailCode, fn: (tx: Queryable) => Promise<T>) {
  try {
    return await withTenant(db, auth.companyId, async (tx) => {
      await lockCompanyParking(tx, auth.companyId);
      return fn(tx);
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError(code);
  }
}

async function audit(tx: Queryable, auth: AuthContext, action: string, areaId: number) {
  await recordAuditEvent(tx, {
    companyId: auth.companyId,
    userId: auth.user.id,
    action,
    details: { parking_area_id: areaId },
  });
}

export function listCompanyParkingAreas(db: Db, auth: AuthContext): Promise<ParkingAreaView[]> {
  return withTenant(db, auth.companyId, async (tx) =>
    withActions(tx, auth.companyId, await listParkingAreas(tx, auth.companyId)),
  );
}

export async function getCompanyParkingArea(db: Db, auth: AuthContext, id: number): Promise<ParkingAreaView> {
  const area = await withTenant(db, auth.companyId, (tx) => viewOf(tx, auth.companyId, id));
  if (!area) throw apiError('PARKING_AREA_NOT_FOUND');
  return area;
}

export async function createParkingArea(
  db: Db,
  auth: AuthContext,
  input: ParkingAreaInput,
  now = Date.now(),
): Promise<ParkingAreaView> {
  requireManager(auth);
  const bays = bayInputs(input) ?? [];
  const fields = checkFields(input, input.type === 'FIX' ? bays.length : null);
  const actions = alarmActionInputs(input) ?? [];
  return write(db, auth, 'PARKING_AREA_CREATE_FAILED', async (tx) => {
    await checkDevices(
      tx,
      auth,
      null,
      fields.type,
      bays.map((b) => b.deviceId),
    );
    const id = await insertParkingArea(tx, auth.companyId, fields);
    await setParkingBays(tx, auth.companyId, id, bays);
    await saveParkingAlarmActions(tx, auth.companyId, id, fields.name, actions);
    await recountParkingAreas(tx, [id], now);
    await audit(tx, auth, 'parking_area.create', id);
    const area = await viewOf(tx, auth.companyId, id);
    if (!area) throw apiError('PARKING_AREA_CREATE_FAILED');
    return area;
  });
}

/** Replaces the area's fields; `devices` absent keeps its devices (checked again against the type). */
export async function updateCompanyParkingArea(
  db: Db,
  auth: AuthContext,
  id: number,
  input: ParkingAreaInput,
  now = Date.now(),
): Promise<ParkingAreaView> {
  requireManager(auth);
  const given = bayInputs(input);
  const actions = alarmActionInputs(input);
  return write(db, auth, 'PARKING_AREA_UPDATE_FAILED', async (tx) => {
    const current = await viewOf(tx, auth.companyId, id);
    if (!current) throw apiError('PARKING_AREA_NOT_FOUND');
    const bays = given ?? current.bays.map((b) => ({ deviceId: b.deviceId, label: b.label }));
    const fields = checkFields(input, input.type === 'FIX' ? bays.length : null);
    await checkDevices(
      tx,
      auth,
      id,
      fields.type,
      bays.map((b) => b.deviceId),
    );
    await updateParkingArea(tx, auth.companyId, id, fields);
    await setParkingBays(tx, auth.companyId, id, bays);
    const kept = current.alarmActions.map(({ id: _id, position: _position, ...values }) => values);
    await saveParkingAlarmActions(tx, auth.companyId, id, fields.name, actions ?? kept);
    await recountParkingAreas(tx, [id], now);
    await audit(tx, auth, 'parking_area.update', id);
    const area = await viewOf(tx, auth.companyId, id);
    if (!area) throw apiError('PARKING_AREA_NOT_FOUND');
    return area;
  });
}

/** Deletes the area; its devices stay, without an area. */
export async function deleteCompanyParkingArea(db: Db, auth: AuthContext, id: number): Promise<void> {
  requireManager(auth);
  await write(db, auth, 'PARKING_AREA_DELETE_FAILED', async (tx) => {
    if (!(await deleteParkingArea(tx, auth.companyId, id))) throw apiError('PARKING_AREA_NOT_FOUND');
    await audit(tx, auth, 'parking_area.delete', id);
  });
}
