/** Codec scripts (per company) that decode a device's payloads on the uplink path. */
import type { Queryable } from '../db';

/** What ingest needs of a codec: its script, and whether it is suspended (migration 0034). */
export interface IngestCodec {
  script: string;
  suspended: boolean;
}

/** The script of a company's codec and its suspension; null when it does not exist in that company. */
export async function findIngestCodec(
  q: Queryable,
  companyId: number,
  codecId: number,
): Promise<IngestCodec | null> {
  const { rows } = await q.query<{ script: string; suspended: boolean }>(
    'SELECT script, suspended_at IS NOT NULL AS suspended FROM codecs WHERE id = $1 AND company_id = $2',
    [codecId, companyId],
  );
  const row = rows[0];
  return row ? { script: row.script, suspended: row.suspended } : null;
}

export interface CodecSuspension {
  companyId: number;
  codecId: number;
  /** The device whose uplink was the last straw: its device log gets the entry. */
  deviceId: number;
  /** Why, in English (the console words it from the kind and the code). */
  reason: string;
}

/**
 * Suspends a codec that kept running past its budget (issue #28): sets suspended_at unless it is set, and
 * then, in the same statement, writes one system message to the company (kind `codec_suspended`) and one
 * entry in the device's log (data-modifying CTEs always run to completion). False when it was suspended already (or is not the company's).
 */
export async function suspendCodec(q: Queryable, suspension: CodecSuspension): Promise<boolean> {
  const { rows } = await q.query<{ n: number }>(
    `WITH s AS (
       UPDATE codecs SET suspended_at = now(), suspended_reason = $4
        WHERE id = $2 AND company_id = $1 AND suspended_at IS NULL
       RETURNING id, name
     ), d AS (
       SELECT id, name FROM devices WHERE id = $3 AND company_id = $1
     ), m AS (
       INSERT INTO messages (company_id, subject, body, level, device_id, kind, params)
       SELECT $1, 'Codec suspended: ' || s.name, $4, 3, d.id, 'codec_suspended',
              jsonb_build_object('codec_id', s.id, 'codec', s.name, 'device', d.name, 'error', $4::text,
                                 'code', 90100)
         FROM s LEFT JOIN d ON true
       RETURNING 1
     ), l AS (
       INSERT INTO device_logs (device_id, company_id, level, message, kind, params, payload)
       SELECT d.id, $1, 3, 'codec ' || s.name || ' suspended (90100): ' || $4, 'codec_suspended_log',
              jsonb_build_object('codec', s.name, 'error', $4::text),
              jsonb_build_object('kind', 'codec_suspended', 'code', 90100, 'codec_id', s.id, 'error', $4::text)
         FROM s JOIN d ON true
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM s`,
    [suspension.companyId, suspension.codecId, suspension.deviceId, suspension.reason],
  );
  return (rows[0]?.n ?? 0) > 0;
}

export interface CodecRecord {
  id: number;
  companyId: number;
  name: string;
  script: string;
  /** Entry points the script defines (decodeUplink, encodeDownlink, decodeDownlink, Decoder, ...). */
  functions: string[];
  /** The company's devices that decode with this codec, ascending. */
  deviceIds: number[];
  /** When ingest suspended it for running past its budget (migration 0034); null while it runs. */
  suspendedAt: Date | null;
  suspendedReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface CodecRow {
  id: number;
  company_id: number;
  name: string;
  script: string;
  functions: string[];
  device_ids: number[] | null;
  suspended_at: Date | null;
  suspended_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

// The devices come from one grouped subquery naming the company, never another company's devices.
const SELECT_CODECS = `SELECT c.id::int AS id, c.company_id::int AS company_id, c.name, c.script, c.functions,
    coalesce(d.device_ids, '{}') AS device_ids,
    c.suspended_at, c.suspended_reason, c.created_at, c.updated_at
  FROM codecs c
  LEFT JOIN (
    SELECT codec_id, array_agg(id::int ORDER BY id) AS device_ids FROM devices
     WHERE company_id = $1 AND codec_id IS NOT NULL GROUP BY codec_id
  ) d ON d.codec_id = c.id
  WHERE c.company_id = $1`;

const toCodec = (row: CodecRow): CodecRecord => ({
  id: row.id,
  companyId: row.company_id,
  name: row.name,
  script: row.script,
  functions: row.functions ?? [],
  deviceIds: row.device_ids ?? [],
  suspendedAt: row.suspended_at,
  suspendedReason: row.suspended_reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The company's codecs sorted by name (case-insensitive), then id. */
export async function listCodecs(q: Queryable, companyId: number): Promise<CodecRecord[]> {
  const { rows } = await q.query<CodecRow>(`${SELECT_CODECS} ORDER BY lower(c.name), c.id`, [companyId]);
  return rows.map(toCodec);
}

export async function findCodec(q: Queryable, companyId: number, id: number): Promise<CodecRecord | null> {
  const { rows } = await q.query<CodecRow>(`${SELECT_CODECS} AND c.id = $2`, [companyId, id]);
  return rows[0] ? toCodec(rows[0]) : null;
}

export interface CodecFields {
  name: string;
  script: string;
  functions: string[];
}

export async function insertCodec(q: Queryable, companyId: number, fields: CodecFields): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    'INSERT INTO codecs (company_id, name, script, functions) VALUES ($1, $2, $3, $4) RETURNING id::int AS id',
    [companyId, fields.name, fields.script, fields.functions],
  );
  return rows[0]!.id;
}

/** Changes what is given (a new script, even the same one, ends a suspension); false when not the company's. */
export async function updateCodec(
  q: Queryable,
  companyId: number,
  id: number,
  fields: Partial<CodecFields>,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE codecs SET name = coalesce($3, name), script = coalesce($4, script),
            functions = coalesce($5, functions), updated_at = now(),
            suspended_at = CASE WHEN $4::text IS NULL THEN suspended_at END,
            suspended_reason = CASE WHEN $4::text IS NULL THEN suspended_reason END
      WHERE id = $1 AND company_id = $2`,
    [id, companyId, fields.name ?? null, fields.script ?? null, fields.functions ?? null],
  );
  return (rowCount ?? 0) > 0;
}

/** Deletes the codec; its devices keep decoding with their driver (the foreign key sets codec_id null). */
export async function deleteCodec(q: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM codecs WHERE id = $1 AND company_id = $2', [id, companyId]);
  return (rowCount ?? 0) > 0;
}

export async function codecExists(q: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM codecs WHERE id = $1 AND company_id = $2', [id, companyId]);
  return rows.length > 0;
}
