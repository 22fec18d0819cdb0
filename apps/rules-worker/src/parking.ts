/**
 * Parking (issue #25): the rules worker keeps each car park's free slots current from the uplinks it
 * evaluates anyway, and its timer turns silent bays unknown and raises overstay alarms.
 *
 * Why here and not in the storage writer: the writer's batch is the platform's hottest transaction, tuned
 * statement by statement (device-data-writes.ts), and its app may import only the uplink contracts; the
 * rules worker already owns alarms (the overstay is one) and a timer (an overstay and an 8-hour silence
 * happen without any uplink), and it reads the uplink data in the same log order. Uplinks without a
 * parking field (`occupied`, a vehicle count, free spaces) cost one object lookup and no statement.
 */
import type { NotifyActionPayload } from '@iot/contracts/jobs';
import {
  announceAlarmsChanged,
  applyParkingReadings,
  findParkingAlarmActionRefs,
  insertDeviceLogRows,
  type ParkingUplink,
  type Queryable,
  type RaisedParkingAlarm,
  refreshParkingOnTimer,
} from '@iot/db';
import { DEVICE_LOG_LEVEL, parkingReadingOf } from '@iot/domain';
import type { PositionedUplink } from './uplink-record.js';

export function parkingUplinksOf(uplinks: readonly PositionedUplink[]): ParkingUplink[] {
  const out: ParkingUplink[] = [];
  for (const { uplink } of uplinks) {
    const reading = parkingReadingOf(uplink.data as Record<string, unknown>);
    if (reading)
      out.push({ deviceId: uplink.deviceId, companyId: uplink.companyId, at: uplink.measuredAt, reading });
  }
  return out;
}

/**
 * The batch's parking readings, in the batch's transaction. Returns the notify jobs of the parking alarms
 * they raised (parkingAlarmJobs), to hand over with the batch's own after the commit.
 */
export async function applyParkingUplinks(
  tx: Queryable,
  uplinks: readonly ParkingUplink[],
  now: number,
): Promise<NotifyActionPayload[]> {
  if (uplinks.length === 0) return [];
  const raised: RaisedParkingAlarm[] = [];
  await applyParkingReadings(tx, uplinks, now, raised);
  // Readings may raise or clear parking alarms: the API's alarm poll is told (ALARMS_CHANGED_CHANNEL).
  await announceAlarmsChanged(tx);
  return parkingAlarmJobs(tx, raised);
}

/** The timer tick's share, in the tick's transaction: the notify jobs of the alarms it raised. */
export async function refreshParking(tx: Queryable, now: number): Promise<NotifyActionPayload[]> {
  const { areas, judged, overstays, raised } = await refreshParkingOnTimer(tx, now);
  // A recount or judging a saved car park may raise or clear an area's alarm, an overstay raises one.
  if (areas.length > 0 || judged.length > 0 || overstays > 0 || raised.length > 0)
    await announceAlarmsChanged(tx);
  return parkingAlarmJobs(tx, raised);
}

/**
 * Parking alarms go out like a rule's: one notify job per action of the area's alarm rule (trigger
 * 'parking', edited with the car park), for the notifier's channels (email, SMS, voice, system message,
 * http, remote control). The job names the alarm's device and carries the alarm's text as its value
 * (`{value}` in a subject or body); its message id `parking:<alarm id>` makes each alarm notify once. The
 * jobs are recorded in the device log entry of the alarm (kind rule_fired), like a firing's, so the
 * start-up sweep hands them over again after a crash between commit and enqueue.
 */
export async function parkingAlarmJobs(
  tx: Queryable,
  raised: readonly RaisedParkingAlarm[],
): Promise<NotifyActionPayload[]> {
  if (raised.length === 0) return [];
  const refs = await findParkingAlarmActionRefs(tx, [...new Set(raised.map((a) => a.areaId))]);
  const jobs: NotifyActionPayload[] = [];
  const logs: Parameters<typeof insertDeviceLogRows>[1][number][] = [];
  for (const alarm of raised) {
    const actions = refs.filter((r) => r.areaId === alarm.areaId && r.companyId === alarm.companyId);
    const firedAt = new Date(alarm.at).toISOString();
    const own = actions.map(
      (action): NotifyActionPayload => ({
        companyId: alarm.companyId,
        ruleId: action.ruleId,
        actionId: action.actionId,
        deviceId: alarm.deviceId,
        alarmId: alarm.alarmId,
        uplinkMessageId: `parking:${alarm.alarmId}`,
        field: alarm.kind,
        value: alarm.message.slice(0, 200),
        firedAt,
      }),
    );
    jobs.push(...own);
    logs.push({
      device_id: alarm.deviceId,
      company_id: alarm.companyId,
      level: own.length > 0 ? DEVICE_LOG_LEVEL.info : DEVICE_LOG_LEVEL.warning,
      message: `${alarm.message}; ${own.length} action(s) queued`,
      kind: 'parking_alarm',
      params: { ...alarm.params, actions: own.length },
      payload:
        own.length > 0
          ? { kind: 'rule_fired', parking: alarm.kind, alarmId: alarm.alarmId, jobs: own }
          : { kind: alarm.kind, alarmId: alarm.alarmId },
      raw: null,
      created_at: firedAt,
    });
  }
  await insertDeviceLogRows(tx, logs);
  return jobs;
}
