/** Codec scripts (per company) that decode a device's payloads on the uplink path. */
import type { Queryable } from '../db';

/** The script of a company's codec; null when it does not exist in that company. */
export async function findCodecScript(
  q: Queryable,
  companyId: number,
  codecId: number,
): Promise<string | null> {
  const { rows } = await q.query<{ script: string }>(
    'SELECT script FROM codecs WHERE id = $1 AND company_id = $2',
    [codecId, companyId],
  );
  return rows[0]?.script ?? null;
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
  created_at: Date;
  updated_at: Date;
}

// The devices come from one grouped subquery naming the company, never another company's devices.
const SELECT_CODECS = `SELECT c.id::int AS id, c.company_id::int AS company_id, c.name, c.script, c.functions,
    coalesce(d.device_ids, '{}') AS device_ids, c.created_at, c.updated_at
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

/** Changes what is given; false when the codec is not the company's. */
export async function updateCodec(
  q: Queryable,
  companyId: number,
  id: number,
  fields: Partial<CodecFields>,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE codecs SET name = coalesce($3, name), script = coalesce($4, script),
            functions = coalesce($5, functions), updated_at = now()
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
