import type { RuleUplink } from '@iot/contracts/uplinks';
import type { LogRecord } from '@iot/event-log';

export { RULES_WORKER_GROUP, type RuleUplink, UPLINKS_TOPIC } from '@iot/contracts/uplinks';

/** An uplink with where it sits in the log (for replay detection, see log-cursor.ts). */
export interface PositionedUplink {
  uplink: RuleUplink;
  partition: number;
  offset: string;
  timestamp: number;
}

/**
 * Measurements only: decode failures, status and log envelopes carry nothing a rule compares. A hand-written
 * check of the fields the worker reads, not a schema validation: it runs for every uplink on the hot path.
 */
export function readUplinkRecord(record: LogRecord): PositionedUplink | null {
  const v = record.value as Partial<RuleUplink & { v: number; kind: string }> | null;
  if (
    typeof v !== 'object' ||
    v === null ||
    v.v !== 1 ||
    v.kind !== 'uplink' ||
    !Number.isSafeInteger(v.deviceId) ||
    !Number.isSafeInteger(v.companyId) ||
    typeof v.measuredAt !== 'string' ||
    Number.isNaN(Date.parse(v.measuredAt)) ||
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
  };
}
