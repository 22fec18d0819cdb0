/**
 * What the rules worker writes for parking (migration 0030): a bay's latest reading from an uplink, the
 * stays it starts and ends, the area's counts recounted for the areas a batch touched (never per request),
 * and on its timer the bays that turned stale and the overstays. Runs as the owner role inside the
 * worker's transaction; every row names the company the uplink or the area carries.
 */
import {
  type AreaCounts,
  computeAreaCounts,
  overstaysAt,
  PARKING_STALE_MS,
  type ParkingReading,
  vehiclesOf,
} from '@iot/domain';
import type { Queryable } from '../db';
import { jsonParam } from './json-param';

export interface ParkingUplink {
  deviceId: number;
  companyId: number;
  /** ISO time of measurement. */
  at: string;
  reading: ParkingReading;
}

/** A parking alarm raised in the caller's transaction: the rules worker turns it into notify jobs. */
export interface RaisedParkingAlarm {
  alarmId: number;
  companyId: number;
  areaId: number;
  /** The device the alarm is on (the bay; for an area's alarm, one of its devices). */
  deviceId: number;
  kind: 'parking_overstay' | 'parking_free_slots' | 'parking_count_warning';
  /** The stored text, both languages. */
  message: string;
  /** The text's parameters for the `parking_alarm` kind of SERVER_TEXTS (@iot/domain). */
  params: Record<string, unknown>;
  /** ms */
  at: number;
}

interface BayRow {
  device_id: number;
  company_id: number;
  area_id: number;
  type: 'FIX' | 'AI';
  capacity: number;
  occupied: boolean | null;
  reported_count: number | null;
  status_since: Date | null;
  reading_at: Date | null;
  overstay_alarm_id: number | null;
}

/**
 * Applies the batch's parking readings to their bays (older than the stored reading: ignored), opens and
 * closes stays, clears the overstay alarm of a bay that freed, and recounts the touched areas. Devices
 * that feed no area are left alone. Returns the ids of the areas whose counts changed; alarms raised on
 * the way are appended to `raised`.
 */
export async function applyParkingReadings(
  q: Queryable,
  uplinks: readonly ParkingUplink[],
  now: number,
  raised: RaisedParkingAlarm[] = [],
): Promise<number[]> {
  if (uplinks.length === 0) return [];
  const { rows: bays } = await q.query<BayRow>(
    `SELECT pb.device_id::int AS device_id, pb.company_id::int AS company_id, pb.area_id::int AS area_id,
            a.type, a.capacity, pb.occupied, pb.reported_count, pb.status_since, pb.reading_at,
            pb.overstay_alarm_id::int AS overstay_alarm_id
       FROM parking_bays pb JOIN parking_areas a ON a.id = pb.area_id
      WHERE pb.device_id = ANY($1::bigint[])
      ORDER BY pb.device_id
      FOR UPDATE OF pb`,
    [[...new Set(uplinks.map((u) => u.deviceId))]],
  );
  const byDevice = new Map(bays.map((b) => [b.device_id, b]));
  const opened: { device_id: number; company_id: number; area_id: number; at: string }[] = [];
  const closed: { device_id: number; at: string }[] = [];
  const cleared: number[] = [];
  const touched = new Map<number, BayRow>();
  const ordered = [...uplinks].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  for (const u of ordered) {
    const bay = byDevice.get(u.deviceId);
    if (!bay || bay.company_id !== u.companyId) continue;
    const at = new Date(u.at);
    if (bay.reading_at && bay.reading_at > at) continue;
    if (bay.type === 'FIX' && u.reading.occupied !== undefined) {
      if (u.reading.occupied !== bay.occupied) {
        if (u.reading.occupied)
          opened.push({
            device_id: bay.device_id,
            company_id: bay.company_id,
            area_id: bay.area_id,
            at: u.at,
          });
        else if (bay.occupied) closed.push({ device_id: bay.device_id, at: u.at });
        if (!u.reading.occupied && bay.overstay_alarm_id !== null) {
          cleared.push(bay.overstay_alarm_id);
          bay.overstay_alarm_id = null;
        }
        bay.occupied = u.reading.occupied;
        bay.status_since = at;
      }
    } else if (bay.type === 'AI') {
      const vehicles = vehiclesOf(u.reading, bay.capacity);
      if (vehicles === null) continue;
      bay.reported_count = vehicles;
    } else continue;
    bay.reading_at = at;
    touched.set(bay.device_id, bay);
  }
  if (touched.size === 0) return [];
  await writeBays(q, [...touched.values()]);
  await writeStays(q, opened, closed);
  if (cleared.length > 0)
    await q.query(
      `UPDATE alarms SET state = 'cleared', cleared_at = $2 WHERE id = ANY($1::bigint[]) AND state <> 'cleared'`,
      [cleared, new Date(now)],
    );
  return recountParkingAreas(q, [...new Set([...touched.values()].map((b) => b.area_id))], now, raised);
}

async function writeBays(q: Queryable, bays: readonly BayRow[]): Promise<void> {
  await q.query(
    `UPDATE parking_bays pb SET occupied = r.occupied, reported_count = r.reported_count,
            status_since = r.status_since, reading_at = r.reading_at, overstay_alarm_id = r.overstay_alarm_id
       FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, occupied boolean, reported_count integer,
            status_since timestamptz, reading_at timestamptz, overstay_alarm_id bigint)
      WHERE pb.device_id = r.device_id`,
    [jsonParam(bays)],
  );
}

async function writeStays(
  q: Queryable,
  opened: readonly { device_id: number; company_id: number; area_id: number; at: string }[],
  closed: readonly { device_id: number; at: string }[],
): Promise<void> {
  // Closing first: a bay that freed and filled again within one batch ends one stay and starts the next.
  if (closed.length > 0)
    await q.query(
      `UPDATE parking_stays s SET ended_at = greatest(r.at, s.started_at)
         FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, at timestamptz)
        WHERE s.device_id = r.device_id AND s.ended_at IS NULL`,
      [jsonParam(closed)],
    );
  for (const stay of opened) {
    await q.query(
      `UPDATE parking_stays SET ended_at = greatest($2::timestamptz, started_at)
        WHERE device_id = $1 AND ended_at IS NULL`,
      [stay.device_id, stay.at],
    );
    await q.query(
      'INSERT INTO parking_stays (company_id, area_id, device_id, started_at) VALUES ($1, $2, $3, $4)',
      [stay.company_id, stay.area_id, stay.device_id, stay.at],
    );
  }
}

interface AreaCountRow {
  id: number;
  company_id: number;
  type: 'FIX' | 'AI';
  capacity: number;
  free_slots: number | null;
  occupied_slots: number;
  unknown_slots: number;
  reported_count: number | null;
  count_warning: 'above_capacity' | 'negative' | null;
  bays: { occupied: boolean | null; reported_count: number | null; reading_at: string | null }[] | null;
}

const sameCounts = (row: AreaCountRow, c: AreaCounts) =>
  row.free_slots === c.freeSlots &&
  row.occupied_slots === c.occupiedSlots &&
  row.unknown_slots === c.unknownSlots &&
  row.reported_count === c.reportedCount &&
  row.count_warning === c.countWarning;

/**
 * Recounts the areas from their bays' stored readings (computeAreaCounts), writes the counts that
 * changed and a history row for each, and judges the free-slot and plausibility alarms of the changed
 * areas (raised ones appended to `raised`). Returns the ids of the changed areas. `raised` absent (a
 * caller that cannot hand notify jobs over: the API saving a car park): the areas are marked
 * `alarms_due` instead, for the rules worker's timer to judge (judgeDueParkingAlarms).
 */
export async function recountParkingAreas(
  q: Queryable,
  areaIds: readonly number[],
  now: number,
  raised?: RaisedParkingAlarm[],
): Promise<number[]> {
  if (areaIds.length === 0) return [];
  const { rows } = await q.query<AreaCountRow>(
    `SELECT a.id::int AS id, a.company_id::int AS company_id, a.type, a.capacity, a.free_slots,
            a.occupied_slots, a.unknown_slots, a.reported_count, a.count_warning,
            (SELECT jsonb_agg(jsonb_build_object('occupied', pb.occupied, 'reported_count', pb.reported_count,
                                                 'reading_at', pb.reading_at))
               FROM parking_bays pb WHERE pb.area_id = a.id) AS bays
       FROM parking_areas a WHERE a.id = ANY($1::bigint[]) ORDER BY a.id FOR UPDATE OF a`,
    [areaIds],
  );
  const changed: Record<string, unknown>[] = [];
  const warnings: { id: number; warning: AreaCounts['countWarning'] }[] = [];
  for (const row of rows) {
    const counts = computeAreaCounts({
      type: row.type,
      capacity: row.capacity,
      now,
      bays: (row.bays ?? []).map((b) => ({
        occupied: b.occupied,
        reportedCount: b.reported_count,
        readingAt: b.reading_at === null ? null : new Date(b.reading_at),
      })),
    });
    if (sameCounts(row, counts)) continue;
    if (row.count_warning !== counts.countWarning)
      warnings.push({ id: row.id, warning: counts.countWarning });
    changed.push({
      id: row.id,
      company_id: row.company_id,
      capacity: row.capacity,
      free_slots: counts.freeSlots,
      occupied_slots: counts.occupiedSlots,
      unknown_slots: counts.unknownSlots,
      reported_count: counts.reportedCount,
      count_warning: counts.countWarning,
    });
  }
  // The time the counts were judged at, also when nothing changed: the timer compares it with readings.
  // Without `raised` every area is due for judging: a saved car park may have new thresholds too.
  await q.query(
    `UPDATE parking_areas SET counts_updated_at = $2, alarms_due = alarms_due OR $3
      WHERE id = ANY($1::bigint[])`,
    [areaIds, new Date(now), raised === undefined],
  );
  if (changed.length === 0) return [];
  await q.query(
    `UPDATE parking_areas a SET free_slots = r.free_slots, occupied_slots = r.occupied_slots,
            unknown_slots = r.unknown_slots, reported_count = r.reported_count, count_warning = r.count_warning
       FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, free_slots integer, occupied_slots integer,
            unknown_slots integer, reported_count integer, count_warning text)
      WHERE a.id = r.id`,
    [jsonParam(changed)],
  );
  await q.query(
    `INSERT INTO parking_area_counts (company_id, area_id, at, capacity, free_slots, occupied_slots, unknown_slots)
     SELECT r.company_id, r.id, $2, r.capacity, r.free_slots, r.occupied_slots, r.unknown_slots
       FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, company_id bigint, capacity integer,
            free_slots integer, occupied_slots integer, unknown_slots integer)`,
    [jsonParam(changed), new Date(now)],
  );
  if (raised) {
    await judgeFreeSlotAlerts(
      q,
      changed.map((c) => c.id as number),
      now,
      raised,
    );
    await judgeCountWarnings(q, warnings, now, raised);
  }
  return changed.map((c) => c.id as number);
}

/**
 * The timer's share for car parks saved through the API (`alarms_due`): judges their free-slot and count
 * alarms from their current counts (both judges raise only where no such alarm is open and the cooldown
 * has passed), appends what they raise to `raised`, and clears the mark.
 */
async function judgeDueParkingAlarms(
  q: Queryable,
  now: number,
  raised: RaisedParkingAlarm[],
): Promise<number[]> {
  const { rows } = await q.query<{ id: number; count_warning: AreaCounts['countWarning'] }>(
    `SELECT id::int AS id, count_warning FROM parking_areas WHERE alarms_due
      ORDER BY id FOR UPDATE SKIP LOCKED`,
  );
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  await judgeFreeSlotAlerts(q, ids, now, raised);
  await judgeCountWarnings(
    q,
    rows.map((r) => ({ id: r.id, warning: r.count_warning })),
    now,
    raised,
  );
  await q.query('UPDATE parking_areas SET alarms_due = false WHERE id = ANY($1::bigint[])', [ids]);
  return ids;
}

/**
 * An area whose free slots fell below its threshold (1: full) raises an alarm on one of its devices (the
 * alarm list is per device); it clears once the area has that many free slots again. A new alarm waits
 * for the cooldown after the last one, so a counting sensor flickering at the threshold alarms once.
 */
async function judgeFreeSlotAlerts(
  q: Queryable,
  areaIds: readonly number[],
  now: number,
  raised: RaisedParkingAlarm[],
): Promise<void> {
  await q.query(
    `UPDATE alarms al SET state = 'cleared', cleared_at = $2
       FROM parking_areas a
      WHERE a.id = ANY($1::bigint[]) AND al.company_id = a.company_id AND al.state <> 'cleared'
        AND al.details ->> 'kind' = 'parking_free_slots' AND (al.details ->> 'area_id')::bigint = a.id
        AND (a.alert_free_below IS NULL OR (a.free_slots IS NOT NULL AND a.free_slots >= a.alert_free_below))`,
    [areaIds, new Date(now)],
  );
  const { rows } = await q.query<{
    id: number;
    company_id: number;
    name: string;
    free_slots: number;
    device_id: number;
  }>(
    `SELECT a.id::int AS id, a.company_id::int AS company_id, a.name, a.free_slots,
            (SELECT min(pb.device_id)::int FROM parking_bays pb WHERE pb.area_id = a.id) AS device_id
       FROM parking_areas a
      WHERE a.id = ANY($1::bigint[]) AND a.free_slots < a.alert_free_below
        AND (a.alert_raised_at IS NULL OR a.alert_raised_at + make_interval(mins => a.alert_cooldown_minutes) <= $2)
        AND EXISTS (SELECT 1 FROM parking_bays pb WHERE pb.area_id = a.id)
        AND NOT EXISTS (SELECT 1 FROM alarms al WHERE al.company_id = a.company_id AND al.state <> 'cleared'
                          AND al.details ->> 'kind' = 'parking_free_slots' AND (al.details ->> 'area_id')::bigint = a.id)`,
    [areaIds, new Date(now)],
  );
  for (const area of rows) {
    const full = area.free_slots === 0;
    const message = full
      ? `Car park full: ${area.name} / Parkplatz voll: ${area.name}`
      : `Few free slots: ${area.name} (${area.free_slots}) / Wenige freie Plätze: ${area.name} (${area.free_slots})`;
    const { rows: alarm } = await q.query<{ id: number }>(
      `INSERT INTO alarms (company_id, device_id, level, data_field, value, details, message, raised_at)
       VALUES ($1, $2, 4, 'free_slots', $3, $4, $5, $6) RETURNING id::int AS id`,
      [
        area.company_id,
        area.device_id,
        area.free_slots,
        jsonParam({ kind: 'parking_free_slots', area_id: area.id, area_name: area.name, full }),
        message,
        new Date(now),
      ],
    );
    raised.push({
      alarmId: alarm[0]!.id,
      companyId: area.company_id,
      areaId: area.id,
      deviceId: area.device_id,
      kind: 'parking_free_slots',
      message,
      params: { parking: 'parking_free_slots', area: area.name, free_slots: area.free_slots },
      at: now,
    });
    await q.query('UPDATE parking_areas SET alert_raised_at = $2 WHERE id = $1', [area.id, new Date(now)]);
  }
}

/**
 * An AI area whose reported count turned implausible (above capacity, negative) raises an alarm on one
 * of its sensors, at most once per the area's cooldown (a count flickering at the capacity alarms once);
 * it clears when the count is plausible again.
 */
async function judgeCountWarnings(
  q: Queryable,
  changes: readonly { id: number; warning: AreaCounts['countWarning'] }[],
  now: number,
  raised: RaisedParkingAlarm[],
): Promise<void> {
  if (changes.length === 0) return;
  const isOpen = `al.state <> 'cleared' AND al.details ->> 'kind' = 'parking_count_warning'
                  AND (al.details ->> 'area_id')::bigint = a.id AND al.company_id = a.company_id`;
  const plausible = changes.filter((c) => c.warning === null).map((c) => c.id);
  if (plausible.length > 0)
    await q.query(
      `UPDATE alarms al SET state = 'cleared', cleared_at = $2 FROM parking_areas a
        WHERE a.id = ANY($1::bigint[]) AND ${isOpen}`,
      [plausible, new Date(now)],
    );
  const implausible = changes.filter((c) => c.warning !== null).map((c) => c.id);
  if (implausible.length === 0) return;
  const { rows } = await q.query<{
    id: number;
    company_id: number;
    name: string;
    capacity: number;
    reported_count: number;
    count_warning: string;
    device_id: number;
  }>(
    `SELECT a.id::int AS id, a.company_id::int AS company_id, a.name, a.capacity, a.reported_count,
            a.count_warning, (SELECT min(pb.device_id)::int FROM parking_bays pb WHERE pb.area_id = a.id) AS device_id
       FROM parking_areas a
      WHERE a.id = ANY($1::bigint[]) AND a.count_warning IS NOT NULL
        AND EXISTS (SELECT 1 FROM parking_bays pb WHERE pb.area_id = a.id)
        AND NOT EXISTS (SELECT 1 FROM alarms al WHERE ${isOpen})
        AND NOT EXISTS (SELECT 1 FROM alarms al WHERE al.details ->> 'kind' = 'parking_count_warning'
                          AND (al.details ->> 'area_id')::bigint = a.id AND al.company_id = a.company_id
                          AND al.raised_at + make_interval(mins => a.alert_cooldown_minutes) > $2)`,
    [implausible, new Date(now)],
  );
  for (const area of rows) {
    const message = `Implausible count: ${area.name} reports ${area.reported_count} vehicles, capacity ${area.capacity} / Unplausible Zählung: ${area.name} meldet ${area.reported_count} Fahrzeuge bei ${area.capacity} Plätzen`;
    const { rows: alarm } = await q.query<{ id: number }>(
      `INSERT INTO alarms (company_id, device_id, level, data_field, value, details, message, raised_at)
       VALUES ($1, $2, 4, 'vehicle_count', $3, $4, $5, $6) RETURNING id::int AS id`,
      [
        area.company_id,
        area.device_id,
        area.reported_count,
        jsonParam({
          kind: 'parking_count_warning',
          area_id: area.id,
          area_name: area.name,
          warning: area.count_warning,
          capacity: area.capacity,
        }),
        message,
        new Date(now),
      ],
    );
    raised.push({
      alarmId: alarm[0]!.id,
      companyId: area.company_id,
      areaId: area.id,
      deviceId: area.device_id,
      kind: 'parking_count_warning',
      message,
      params: {
        parking: 'parking_count_warning',
        area: area.name,
        reported: area.reported_count,
        capacity: area.capacity,
      },
      at: now,
    });
  }
}

/**
 * The timer's share: recounts areas with a bay whose reading turned stale (8 h) since they were last
 * counted, judges the alarms of areas saved through the API since (judgeDueParkingAlarms), and raises an
 * overstay alarm, once per stay, for each occupied bay past its area's maximum parking time plus grace.
 * Returns the changed areas, the judged ones, the number of overstays and every alarm raised.
 */
export async function refreshParkingOnTimer(
  q: Queryable,
  now: number,
): Promise<{ areas: number[]; judged: number[]; overstays: number; raised: RaisedParkingAlarm[] }> {
  const raised: RaisedParkingAlarm[] = [];
  const staleBefore = new Date(now - PARKING_STALE_MS);
  const { rows: stale } = await q.query<{ id: number }>(
    `SELECT DISTINCT a.id::int AS id FROM parking_areas a JOIN parking_bays pb ON pb.area_id = a.id
      WHERE pb.reading_at < $1 AND (a.counts_updated_at IS NULL OR a.counts_updated_at - interval '8 hours' <= pb.reading_at)`,
    [staleBefore],
  );
  const areas = await recountParkingAreas(
    q,
    stale.map((r) => r.id),
    now,
    raised,
  );
  const judged = await judgeDueParkingAlarms(q, now, raised);
  return { areas, judged, overstays: await raiseOverstays(q, now, raised), raised };
}

interface OverstayRow {
  device_id: number;
  company_id: number;
  area_id: number;
  area_name: string;
  label: string | null;
  status_since: Date;
  max_parking_minutes: number;
  grace_minutes: number;
}

async function raiseOverstays(q: Queryable, now: number, raised: RaisedParkingAlarm[]): Promise<number> {
  const { rows } = await q.query<OverstayRow>(
    `SELECT pb.device_id::int AS device_id, pb.company_id::int AS company_id, pb.area_id::int AS area_id,
            a.name AS area_name, pb.label, pb.status_since, a.max_parking_minutes, a.grace_minutes
       FROM parking_bays pb JOIN parking_areas a ON a.id = pb.area_id
      WHERE pb.occupied AND pb.overstay_alarm_id IS NULL AND a.type = 'FIX' AND a.max_parking_minutes IS NOT NULL
        AND pb.reading_at >= $2
        AND pb.status_since + make_interval(mins => a.max_parking_minutes + a.grace_minutes) < $1
      ORDER BY pb.device_id
      FOR UPDATE OF pb SKIP LOCKED`,
    [new Date(now), new Date(now - PARKING_STALE_MS)],
  );
  for (const bay of rows) {
    const due = overstaysAt(bay.status_since, bay.max_parking_minutes, bay.grace_minutes);
    if (due === null || due >= now) continue;
    const message = overstayMessage(bay);
    const { rows: alarm } = await q.query<{ id: number }>(
      `INSERT INTO alarms (company_id, device_id, level, data_field, value, details, message, raised_at)
       VALUES ($1, $2, 4, 'occupied', 1, $3, $4, $5) RETURNING id::int AS id`,
      [
        bay.company_id,
        bay.device_id,
        jsonParam({
          kind: 'parking_overstay',
          area_id: bay.area_id,
          area_name: bay.area_name,
          label: bay.label,
          since: bay.status_since.toISOString(),
          max_parking_minutes: bay.max_parking_minutes,
          grace_minutes: bay.grace_minutes,
        }),
        message,
        new Date(now),
      ],
    );
    raised.push({
      alarmId: alarm[0]!.id,
      companyId: bay.company_id,
      areaId: bay.area_id,
      deviceId: bay.device_id,
      kind: 'parking_overstay',
      message,
      params: {
        parking: 'parking_overstay',
        area: `${bay.area_name}${bay.label ? ` ${bay.label}` : ''}`,
        minutes: bay.max_parking_minutes,
      },
      at: now,
    });
    await q.query('UPDATE parking_bays SET overstay_alarm_id = $2 WHERE device_id = $1', [
      bay.device_id,
      alarm[0]!.id,
    ]);
  }
  return rows.length;
}

/** The stored text, in both languages: the alarm list shows it to whoever reads it (details carry the facts). */
function overstayMessage(bay: OverstayRow): string {
  const where = `${bay.area_name}${bay.label ? ` ${bay.label}` : ''}`;
  const minutes = bay.max_parking_minutes;
  return `Overstay: ${where}, longer than ${minutes} min / Parkdauer überschritten: ${where}, länger als ${minutes} Min.`;
}
