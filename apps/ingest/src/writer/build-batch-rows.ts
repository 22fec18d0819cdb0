import type { UplinkEnvelope } from '@iot/contracts/uplinks';
import type {
  DeviceCurrentRow,
  DeviceDataRow,
  DeviceLogRow,
  DeviceStatusRow,
  DownlinkOutcomeRow,
  TimedValue,
} from '@iot/db';
import { DEVICE_LOG_LEVEL } from '@iot/domain';
import { extractDeviceStatus } from './extract-device-status.js';

export interface BatchRows {
  data: DeviceDataRow[];
  current: DeviceCurrentRow[];
  status: DeviceStatusRow[];
  logs: DeviceLogRow[];
  downlinks: DownlinkOutcomeRow[];
}

/** A record is used only if it has the envelope's shape; anything else is reported and skipped. */
export function isUplinkEnvelope(value: unknown): value is UplinkEnvelope {
  const v = value as Partial<UplinkEnvelope> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.v === 1 &&
    (v.kind === 'uplink' || v.kind === 'decode_failed' || v.kind === 'status' || v.kind === 'log') &&
    Number.isSafeInteger(v.deviceId) &&
    Number.isSafeInteger(v.companyId) &&
    typeof v.measuredAt === 'string' &&
    (isCanonicalTime(v.measuredAt) || !Number.isNaN(Date.parse(v.measuredAt))) &&
    typeof v.messageId === 'string' &&
    typeof v.data === 'object' &&
    v.data !== null
  );
}

/**
 * `toISOString()` text of a year 0 to 9999 (`YYYY-MM-DDTHH:MM:SS.mmmZ`), what the front doors write: such a
 * time is taken as it is, without a parse and a new Date per envelope. The check is strict on digits,
 * ranges and month lengths, so `new Date(Date.parse(t)).toISOString() === t` holds for every text it
 * accepts; February 29 (leap years) and any other spelling are left to the parse, which normalizes them.
 */
const CANONICAL_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const SHORT_MONTHS = new Set(['02', '04', '06', '09', '11']);

export function isCanonicalTime(text: string): boolean {
  if (text.length !== 24 || !CANONICAL_TIME.test(text)) return false;
  const month = text.slice(5, 7);
  if (month === '02') return text.charCodeAt(8) !== 51 && !text.startsWith('29', 8);
  return !(text.startsWith('31', 8) && SHORT_MONTHS.has(month));
}

/** The envelope's measurement time as `toISOString()` text (the writer's time and dedupe key). */
function canonicalTime(text: string): string {
  return isCanonicalTime(text) ? text : new Date(Date.parse(text)).toISOString();
}

/**
 * Times here are `toISOString()` text: of equal length (years 0 to 9999) they order as text, which spares
 * two date parses per field and uplink; other lengths (extended years) are parsed.
 */
const later = (a: string, b: string) =>
  a.length === 24 && b.length === 24 ? a >= b : Date.parse(a) >= Date.parse(b);

/**
 * A log envelope's downlink outcome as a row, if it has a usable one: the record comes from the log, so
 * its shape is checked here rather than trusted (a malformed one would fail the batch's statement).
 */
function downlinkOutcomeRow(e: UplinkEnvelope, at: string): DownlinkOutcomeRow | null {
  const d = e.downlink;
  if (!d || typeof d.reference !== 'string' || d.reference === '') return null;
  if (d.state !== 'acknowledged' && d.state !== 'failed') return null;
  return {
    device_id: e.deviceId,
    company_id: e.companyId,
    reference: d.reference,
    state: d.state,
    error: d.state === 'failed' ? (typeof d.error === 'string' ? d.error : 'failed') : null,
    at,
  };
}

/**
 * Turns a batch of envelopes into one list of rows per table: a data point per uplink, one coalesced
 * device_current row and one status row per device (per field the newest value of the batch wins),
 * the device log entries, and the downlink outcomes network servers reported. An envelope repeated
 * within the batch (same device, time and message id) counts once.
 */
export function buildBatchRows(envelopes: readonly UplinkEnvelope[]): BatchRows {
  const rows: BatchRows = { data: [], current: [], status: [], logs: [], downlinks: [] };
  const current = new Map<number, DeviceCurrentRow>();
  const status = new Map<number, DeviceStatusRow>();
  const seen = new Set<string>();
  const warned = new Map<number, { envelope: UplinkEnvelope; warnings: Set<string>; messageIds: string[] }>();

  for (const e of envelopes) {
    // The same instant always gives the same canonical text, so the text keys the repeat check.
    const at = canonicalTime(e.measuredAt);
    const identity = `${e.deviceId}|${at}|${e.messageId}`;
    if (seen.has(identity)) continue;
    seen.add(identity);

    if (e.kind === 'uplink') {
      rows.data.push({
        device_id: e.deviceId,
        company_id: e.companyId,
        created_at: at,
        data: e.data,
        latitude: e.geo?.latitude ?? null,
        longitude: e.geo?.longitude ?? null,
        metalabel: null,
        fcnt: e.fcnt ?? null,
        message_id: e.messageId,
      });
      let row = current.get(e.deviceId);
      if (!row) {
        row = {
          device_id: e.deviceId,
          company_id: e.companyId,
          data: {},
          field_times: {},
          latitude: null,
          longitude: null,
          updated_at: at,
        };
        current.set(e.deviceId, row);
      }
      const data = e.data as Record<string, unknown>;
      const rowData = row.data;
      const fieldTimes = row.field_times;
      for (const field of Object.keys(data)) {
        const known = fieldTimes[field];
        if (known === undefined || later(at, known)) {
          rowData[field] = data[field];
          fieldTimes[field] = at;
        }
      }
      if (e.geo && (row.field_times.geo === undefined || later(at, row.field_times.geo))) {
        row.latitude = e.geo.latitude;
        row.longitude = e.geo.longitude;
        row.field_times.geo = at;
      }
      if (later(at, row.updated_at)) row.updated_at = at;
    }

    if (e.kind === 'log') {
      // Network server events say nothing about the device's readings or when it last sent.
      rows.logs.push({
        device_id: e.deviceId,
        company_id: e.companyId,
        level: Math.min(7, Math.max(0, Math.round(e.log?.level ?? DEVICE_LOG_LEVEL.info))),
        message: e.log?.message ?? 'network server event',
        kind: e.log?.kind ?? null,
        params: e.log?.params ?? null,
        payload: { source: e.source, messageId: e.messageId, measuredAt: e.measuredAt, metadata: e.metadata },
        raw: null,
        created_at: e.receivedAt ?? at,
      });
      const outcome = downlinkOutcomeRow(e, at);
      if (outcome) rows.downlinks.push(outcome);
      continue;
    }

    let device = status.get(e.deviceId);
    if (!device) {
      device = { device_id: e.deviceId, company_id: e.companyId, last_online_at: at };
      status.set(e.deviceId, device);
    } else if (later(at, device.last_online_at)) {
      device.last_online_at = at;
    }
    const values = extractDeviceStatus(e) as Record<string, number>;
    const timed = device as unknown as Record<string, TimedValue | undefined>;
    for (const column of Object.keys(values)) {
      const known = timed[column];
      if (known === undefined || later(at, known.at)) timed[column] = { value: values[column]!, at };
    }

    const warnings = e.warnings;
    if (e.kind === 'decode_failed') {
      const { raw, warnings: _warnings, errors, ...envelope } = e;
      rows.logs.push({
        device_id: e.deviceId,
        company_id: e.companyId,
        level: DEVICE_LOG_LEVEL.error,
        message: `uplink could not be decoded: ${(errors ?? []).join('; ')}`,
        kind: 'decode_failed',
        params: { errors: (errors ?? []).join('; ') },
        payload: { ...envelope, errors },
        raw: raw ?? null,
        created_at: e.receivedAt ?? at,
      });
    }
    if (warnings && warnings.length > 0) {
      let entry = warned.get(e.deviceId);
      if (!entry) {
        entry = { envelope: e, warnings: new Set(), messageIds: [] };
        warned.set(e.deviceId, entry);
      }
      for (const warning of warnings) entry.warnings.add(warning);
      entry.messageIds.push(e.messageId);
    }
  }
  // A device that warns on every uplink (an extra field it always sends) gets one warning entry per
  // batch, not one per uplink.
  for (const { envelope: e, warnings, messageIds } of warned.values()) {
    rows.logs.push({
      device_id: e.deviceId,
      company_id: e.companyId,
      level: DEVICE_LOG_LEVEL.warning,
      message: `decoder warnings: ${[...warnings].join('; ')}`,
      kind: 'decoder_warnings',
      params: { warnings: [...warnings].join('; ') },
      payload: { messageIds, warnings: [...warnings] },
      raw: null,
      created_at: e.receivedAt ?? e.measuredAt,
    });
  }
  rows.current = [...current.values()];
  rows.status = [...status.values()];
  return rows;
}
