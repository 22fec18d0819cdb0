import type { LogRecord } from '@iot/event-log';

/** Topic and consumer group of the rules worker on the event log. */
export const UPLINKS_TOPIC = 'uplinks';
export const RULES_WORKER_GROUP = 'rules-worker';

/**
 * The part of ingest's uplink envelope (apps/ingest `UplinkEnvelope`, kind 'uplink') the worker reads.
 * Declared here structurally so the worker does not depend on the ingest app.
 */
export interface RuleUplink {
  deviceId: number;
  companyId: number;
  receivedAt: string;
  measuredAt: string;
  messageId: string;
  data: Record<string, unknown>;
  geo?: { latitude: number; longitude: number };
  fcnt?: number;
}

/** An uplink with where it sits in the log (for replay detection, see log-cursor.ts). */
export interface PositionedUplink {
  uplink: RuleUplink;
  partition: number;
  offset: string;
  timestamp: number;
}

/** Measurements only: decode failures, status and log envelopes carry nothing a rule compares. */
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
