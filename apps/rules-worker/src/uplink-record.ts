import type { RuleUplink } from '@iot/contracts/uplinks';
import type { LogRecord } from '@iot/event-log';

export { RULES_WORKER_GROUP, type RuleUplink, UPLINKS_TOPIC } from '@iot/contracts/uplinks';

/** An uplink with where it sits in the log (for replay detection, see log-cursor.ts). */
export interface PositionedUplink {
  uplink: RuleUplink;
  partition: number;
  offset: string;
  timestamp: number;
  /**
   * `uplink.measuredAt` in epoch ms, parsed once when the record is read: replay detection, the log
   * cursor, the time order and the engine each need it, and parsing the ISO text per use cost more
   * than evaluating the device's ten rules. Absent on uplinks built by hand (tests): `measuredMs`.
   */
  measuredAtMs?: number;
}

/** The uplink's measurement time in epoch ms. */
export function measuredMs(u: { uplink: { measuredAt: string }; measuredAtMs?: number }): number {
  return u.measuredAtMs ?? Date.parse(u.uplink.measuredAt);
}

/**
 * Measurements only: decode failures, status and log envelopes carry nothing a rule compares. A hand-written
 * check of the fields the worker reads, not a schema validation: it runs for every uplink on the hot path.
 */
export function readUplinkRecord(record: LogRecord): PositionedUplink | null {
  const v = record.value as Partial<RuleUplink & { v: number; kind: string }> | null;
  const measuredAtMs = typeof v?.measuredAt === 'string' ? Date.parse(v.measuredAt) : Number.NaN;
  if (
    typeof v !== 'object' ||
    v === null ||
    v.v !== 1 ||
    v.kind !== 'uplink' ||
    !Number.isSafeInteger(v.deviceId) ||
    !Number.isSafeInteger(v.companyId) ||
    Number.isNaN(measuredAtMs) ||
    typeof v.receivedAt !== 'string' ||
    typeof v.messageId !== 'string' ||
    v.messageId === '' ||
    typeof v.data !== 'object' ||
    v.data === null
  )
    return null;
  return {
    uplink: v as RuleUplink,
    partition: record.partition,
    offset: record.offset,
    timestamp: record.timestamp,
    measuredAtMs,
  };
}
