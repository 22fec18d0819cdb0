/** Downlink history of a device (migration 0002) for the console; the notifier's sendDownlink writes it. */
import { downlinkNoReportError } from '@iot/domain';
import type { Queryable } from '../db';
import { jsonParam } from './json-param';

export interface DownlinkRecord {
  id: number;
  deviceId: number;
  command: string;
  params: Record<string, unknown>;
  /** Hex of the bytes as sent, null before encoding. */
  encoded: string | null;
  fport: number | null;
  state: 'queued' | 'sent' | 'acknowledged' | 'failed';
  attempts: number;
  error: string | null;
  /**
   * How a LoRaWAN downlink is found again when its network server reports on it: ChirpStack's queue item
   * id, or the correlation id it was pushed to The Things Stack with; null over MQTT.
   */
  reference: string | null;
  createdBy: number | null;
  ruleId: number | null;
  createdAt: Date;
  sentAt: Date | null;
  acknowledgedAt: Date | null;
}

export async function listDownlinks(
  q: Queryable,
  companyId: number,
  deviceId: number,
  limit: number,
): Promise<DownlinkRecord[]> {
  const { rows } = await q.query<{
    id: number;
    device_id: number;
    command: string;
    payload: Record<string, unknown>;
    encoded: string | null;
    fport: number | null;
    state: DownlinkRecord['state'];
    attempts: number;
    error: string | null;
    reference: string | null;
    created_by: number | null;
    rule_id: number | null;
    created_at: Date;
    sent_at: Date | null;
    acknowledged_at: Date | null;
  }>(
    `SELECT id::int AS id, device_id::int AS device_id, command, payload, encode(encoded, 'hex') AS encoded,
            fport::int AS fport, state, attempts, error, reference, created_by::int AS created_by, rule_id::int AS rule_id,
            created_at, sent_at, acknowledged_at
       FROM downlinks WHERE company_id = $1 AND device_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [companyId, deviceId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    deviceId: r.device_id,
    command: r.command,
    params: r.payload,
    encoded: r.encoded,
    fport: r.fport,
    state: r.state,
    attempts: r.attempts,
    error: r.error,
    reference: r.reference,
    createdBy: r.created_by,
    ruleId: r.rule_id,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    acknowledgedAt: r.acknowledged_at,
  }));
}

/**
 * The reference of a downlink pushed to The Things Stack, which names no queue item of its own: the
 * notifier sends it as the downlink's correlation id, TTS keeps it among the downlink's correlation ids
 * and sends it back with the downlink's ack, nack, sent and failed messages, where ingest finds it.
 */
export const TTS_DOWNLINK_CORRELATION_PREFIX = 'iot:downlink:';

/**
 * Fails the LoRaWAN commands whose network server has said nothing about them for `timeoutMs`: neither
 * that the device acknowledged them nor that they failed (a TTS webhook without its downlink message
 * types, a ChirpStack whose event integration is not set up, a device that went silent). Such a command
 * would otherwise stay `sent` for good, and an operator would take a valve for closed that never got its
 * command. Migration 0023's trigger tells the company with a system message. A report that arrives later
 * changes nothing (updateDownlinkOutcomes moves `sent` rows only). MQTT commands have no report: `sent`
 * is their last state, so rows without a reference are left alone. Runs across companies, as the
 * platform's own housekeeping, on the downlinks_pending_idx partial index.
 */
export async function expireUnansweredDownlinks(
  q: Queryable,
  options: { now: Date; timeoutMs: number },
): Promise<{ id: number; companyId: number; deviceId: number }[]> {
  const cutoff = new Date(options.now.getTime() - options.timeoutMs);
  const { rows } = await q.query<{ id: number; company_id: number; device_id: number }>(
    `UPDATE downlinks SET state = 'failed', error = $2
      WHERE state = 'sent' AND reference IS NOT NULL AND created_at < $1 AND sent_at < $1
      RETURNING id::int AS id, company_id::int AS company_id, device_id::int AS device_id`,
    [cutoff, downlinkNoReportError(options.timeoutMs / 3_600_000)],
  );
  return rows.map((r) => ({ id: r.id, companyId: r.company_id, deviceId: r.device_id }));
}

/** A device as a downlink's target: what its route and its driver's encoding need. */
export interface DownlinkTargetRecord {
  id: number;
  companyId: number;
  uuid: string;
  driverId: string | null;
  devEui: string | null;
}

/** A device of `companyId` as a downlink target; undefined when the company has no such device. */
export async function findDownlinkTarget(
  q: Queryable,
  companyId: number,
  deviceId: number,
): Promise<DownlinkTargetRecord | undefined> {
  const { rows } = await q.query<{
    id: number;
    company_id: number;
    uuid: string;
    driver_id: string | null;
    dev_eui: string | null;
  }>('SELECT id, company_id, uuid, driver_id, dev_eui FROM devices WHERE id = $1 AND company_id = $2', [
    deviceId,
    companyId,
  ]);
  const row = rows[0];
  return row
    ? { id: row.id, companyId: row.company_id, uuid: row.uuid, driverId: row.driver_id, devEui: row.dev_eui }
    : undefined;
}

export interface QueuedDownlink {
  deviceId: number;
  command: string;
  params: Record<string, unknown>;
  encoded: Uint8Array;
  fPort: number;
  /** The console user who sent it; null for rule actions. */
  createdBy: number | null;
  ruleId: number | null;
  reference: string | null;
  /** A rule action's notify job key: its retries take the same row up again. */
  jobKey: string | null;
}

/**
 * Records a downlink as queued, before it leaves; returns its id. A retry of the same rule action
 * (`jobKey`) takes its row up again, so the history shows one command whose `attempts` counts them.
 */
export async function insertQueuedDownlink(
  q: Queryable,
  companyId: number,
  downlink: QueuedDownlink,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO downlinks (company_id, device_id, command, payload, encoded, fport, state, created_by, rule_id,
                            reference, job_key)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, 'queued', $7, $8, $9, $10)
     ON CONFLICT (company_id, job_key) WHERE job_key IS NOT NULL DO UPDATE
       SET state = 'queued', error = NULL, payload = EXCLUDED.payload, encoded = EXCLUDED.encoded,
           fport = EXCLUDED.fport, reference = EXCLUDED.reference
     RETURNING id`,
    [
      companyId,
      downlink.deviceId,
      downlink.command,
      JSON.stringify(downlink.params),
      downlink.encoded,
      downlink.fPort,
      downlink.createdBy,
      downlink.ruleId,
      downlink.reference,
      downlink.jobKey,
    ],
  );
  return rows[0]!.id;
}

/** A downlink's outcome once its transport answered: sent (with its time) or failed; one attempt more. */
export async function markDownlinkSent(
  q: Queryable,
  companyId: number,
  id: number,
  outcome: { state: 'sent' | 'failed'; error: string | null; reference: string | null },
): Promise<void> {
  await q.query(
    `UPDATE downlinks SET state = $3, error = $4, reference = $5, attempts = attempts + 1,
       sent_at = CASE WHEN $3 = 'sent' THEN now() ELSE sent_at END
     WHERE id = $1 AND company_id = $2`,
    [id, companyId, outcome.state, outcome.error, outcome.reference],
  );
}

/**
 * What a network server reported about a downlink it was given (ChirpStack's `ack` event, The Things
 * Stack's downlink_ack and downlink_failed messages), matched to the `downlinks` row by the reference the
 * notifier stored with it: ChirpStack's queue item id, or the correlation id the notifier gave TTS.
 */
export interface DownlinkOutcomeRow {
  device_id: number;
  company_id: number;
  reference: string;
  state: 'acknowledged' | 'failed';
  error: string | null;
  /** ISO time of the report. */
  at: string;
}

/**
 * Moves sent downlinks to their outcome. Only a `sent` row moves, so a report delivered twice (the log
 * redelivers a batch) or after another outcome changes nothing. The row must be of the device and company
 * the report came for: a network server's report cannot touch another company's downlinks.
 */
export async function updateDownlinkOutcomes(
  q: Queryable,
  rows: readonly DownlinkOutcomeRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `UPDATE downlinks d SET state = r.state, error = r.error,
            acknowledged_at = CASE WHEN r.state = 'acknowledged' THEN r.at ELSE d.acknowledged_at END
       FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, company_id bigint, reference text, state text,
            error text, at timestamptz)
      WHERE d.device_id = r.device_id AND d.company_id = r.company_id AND d.reference = r.reference
        AND d.state = 'sent'`,
    [jsonParam(rows)],
  );
}
