/**
 * API keys of the external API (issue #27). Only the sha-256 of a key is stored; the key itself is shown
 * once, at creation. Revoked keys stay listed with their revocation time.
 */
import type { Queryable } from '../db';

export interface ApiKeyRecord {
  id: number;
  companyId: number;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: Date | null;
  createdBy: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  requestCount: number;
}

interface ApiKeyRow {
  id: number;
  company_id: number;
  name: string;
  prefix: string;
  scopes: string[];
  expires_at: Date | null;
  created_by: number | null;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  request_count: number;
}

const COLUMNS = `id::int AS id, company_id::int AS company_id, name, prefix, scopes, expires_at,
  created_by::int AS created_by, created_at, revoked_at, last_used_at, request_count::int AS request_count`;

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    expiresAt: row.expires_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    requestCount: row.request_count,
  };
}

/** The company's keys (never their hashes), newest first, revoked ones included. */
export async function listApiKeys(q: Queryable, companyId: number): Promise<ApiKeyRecord[]> {
  const { rows } = await q.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE company_id = $1 ORDER BY created_at DESC, id DESC`,
    [companyId],
  );
  return rows.map(toRecord);
}

export interface NewApiKey {
  name: string;
  prefix: string;
  keyHash: string;
  scopes: readonly string[];
  expiresAt: Date | null;
  createdBy: number;
}

export async function insertApiKey(q: Queryable, companyId: number, key: NewApiKey): Promise<ApiKeyRecord> {
  const { rows } = await q.query<ApiKeyRow>(
    `INSERT INTO api_keys (company_id, name, prefix, key_hash, scopes, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [companyId, key.name, key.prefix, key.keyHash, key.scopes, key.expiresAt, key.createdBy],
  );
  const row = rows[0];
  if (!row) throw new Error('insert into api_keys returned no row');
  return toRecord(row);
}

/** Revokes a key of the company (the first revocation time stays); false when it has no such key. */
export async function revokeApiKey(q: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE company_id = $1 AND id = $2',
    [companyId, id],
  );
  return rowCount > 0;
}

/**
 * The live key (not revoked, not expired) with this hash, counting the request as a use of it. Reads
 * across companies: the key is what tells which company acts.
 */
export async function useApiKey(q: Queryable, keyHash: string): Promise<ApiKeyRecord | null> {
  const { rows } = await q.query<ApiKeyRow>(
    `UPDATE api_keys SET last_used_at = now(), request_count = request_count + 1
      WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
      RETURNING ${COLUMNS}`,
    [keyHash],
  );
  const row = rows[0];
  return row ? toRecord(row) : null;
}

/** How many live keys the company has (the limit a company's keys count against). */
export async function countLiveApiKeys(q: Queryable, companyId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM api_keys
      WHERE company_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
    [companyId],
  );
  return rows[0]?.n ?? 0;
}
