/**
 * The alarm page (GET /core/devices/alarms, PUT /core/devices/alarms/{id}/acknowledge) and system messages
 * (GET /core/messages, PUT and DELETE /core/messages/{id}). Any user of the acting company may read and
 * acknowledge alarms; messages are the company's ones addressed to everyone or to the user. Ids outside
 * that scope answer 404 (code 404) and change nothing. Message answers carry the read and unread counts
 * after the change (spec section 4: reading raises read and lowers unread, deleting lowers read).
 */
import type { Db } from '@iot/db';
import {
  type AlarmRecord,
  type AlarmState,
  acknowledgeAlarm,
  countMessages,
  deleteMessage,
  findAlarm,
  listAlarms,
  listMessages,
  type MessageRecord,
  markMessageRead,
  readAsTenant,
  withTenant,
} from '@iot/db';
import { type InterfaceLanguage, wordServerText } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';

/** Cleared alarms stay on the page for a day, so the console's poll shows what just ended. */
export const RECENTLY_CLEARED_SECONDS = 24 * 60 * 60;

export function listCompanyAlarms(
  db: Db,
  auth: AuthContext,
  query: { state?: AlarmState | 'open'; device_id?: number; limit?: number },
): Promise<AlarmRecord[]> {
  return readAsTenant(
    db,
    auth.companyId,
    (q) =>
      listAlarms(q, auth.companyId, {
        ...(query.state === undefined ? {} : { state: query.state }),
        ...(query.device_id === undefined ? {} : { deviceId: query.device_id }),
        clearedWithinSeconds: RECENTLY_CLEARED_SECONDS,
        limit: query.limit ?? 500,
      }),
    // One company's open alarms through their index, whatever the values: planned once (five joins).
    { genericPlan: true },
  );
}

export function acknowledgeCompanyAlarm(db: Db, auth: AuthContext, id: number): Promise<AlarmRecord> {
  return withTenant(db, auth.companyId, async (tx) => {
    if (!(await acknowledgeAlarm(tx, auth.companyId, id, auth.user.id))) throw apiError('DATA_NOT_FOUND');
    const alarm = await findAlarm(tx, auth.companyId, id);
    if (!alarm) throw apiError('DATA_NOT_FOUND');
    return alarm;
  });
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * An alarm's text in `language`: a parking alarm from its details, a rule's or sensor check's from its
 * name and reason (details.reason); anything else as stored.
 */
function alarmText(a: AlarmRecord, language: InterfaceLanguage): string | null {
  const d = a.details;
  if (typeof d.kind === 'string' && d.kind.startsWith('parking_')) {
    const where = `${String(d.area_name ?? '')}${d.label ? ` ${String(d.label)}` : ''}`;
    const params = {
      parking: d.kind,
      area: where,
      free_slots: a.value,
      reported: a.value,
      capacity: d.capacity,
      minutes: d.max_parking_minutes,
    };
    return wordServerText('parking_alarm_text', params, language)?.text ?? a.message;
  }
  if (typeof d.reason !== 'string' || (a.ruleId === null && a.sensorCheckId === null)) return a.message;
  const params =
    a.ruleId !== null
      ? { rule: a.ruleName ?? String(a.ruleId), reason: d.reason, field: a.dataField }
      : { check: a.sensorCheckKind, check_id: a.sensorCheckId, reason: d.reason, field: a.dataField };
  return wordServerText('alarm', params, language)?.text ?? a.message;
}

export function presentAlarm(a: AlarmRecord, language: InterfaceLanguage) {
  return {
    id: a.id,
    device_id: a.deviceId,
    device_name: a.deviceName,
    rule_id: a.ruleId,
    rule_name: a.ruleName,
    sensor_check_id: a.sensorCheckId,
    sensor_check_kind: a.sensorCheckKind,
    state: a.state,
    level: a.level,
    data_field: a.dataField,
    value: a.value,
    message: alarmText(a, language),
    details: a.details,
    raised_at: a.raisedAt.toISOString(),
    acknowledged_at: iso(a.acknowledgedAt),
    acknowledged_by: a.acknowledgedBy,
    cleared_at: iso(a.clearedAt),
  };
}

export async function listUserMessages(db: Db, auth: AuthContext, showRead: boolean) {
  return withTenant(db, auth.companyId, async (tx) => ({
    messages: await listMessages(tx, auth.companyId, auth.user.id, { includeRead: showRead, limit: 500 }),
    counts: await countMessages(tx, auth.companyId, auth.user.id),
  }));
}

export async function readUserMessage(db: Db, auth: AuthContext, id: number) {
  return withTenant(db, auth.companyId, async (tx) => {
    if (!(await markMessageRead(tx, auth.companyId, auth.user.id, id))) throw apiError('DATA_NOT_FOUND');
    return countMessages(tx, auth.companyId, auth.user.id);
  });
}

export async function deleteUserMessage(db: Db, auth: AuthContext, id: number) {
  return withTenant(db, auth.companyId, async (tx) => {
    if (!(await deleteMessage(tx, auth.companyId, auth.user.id, id))) throw apiError('DATA_NOT_FOUND');
    return countMessages(tx, auth.companyId, auth.user.id);
  });
}

/**
 * A message as `language` reads it: the platform's own (a kind of SERVER_TEXTS) worded from its
 * parameters, a rule's as the rule wrote it, and a kind this version does not know as stored. Kind and
 * params stay in the answer for a client that words them itself (the console does).
 */
export function presentMessage(m: MessageRecord, language: InterfaceLanguage) {
  const worded = wordServerText(m.kind, m.params, language);
  return {
    id: m.id,
    user_id: m.userId,
    subject: worded?.subject ?? m.subject,
    body: worded?.text ?? m.body,
    level: m.level,
    is_read: m.isRead,
    read_at: iso(m.readAt),
    device_id: m.deviceId,
    rule_id: m.ruleId,
    kind: m.kind,
    params: m.params,
    created_at: m.createdAt.toISOString(),
  };
}
