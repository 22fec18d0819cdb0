/**
 * Tokens a company hands its network server (ChirpStack v4, The Things Stack v3) or an http script for the
 * ingestion webhooks. Only the sha-256 of a token is stored; the token is shown once, at creation.
 */
import type { Queryable } from '../db';

export const INTEGRATION_TOKEN_KINDS = ['chirpstack', 'tts', 'http'] as const;
export type IntegrationTokenKind = (typeof INTEGRATION_TOKEN_KINDS)[number];

export interface IntegrationTokenRecord {
  id: number;
  kind: string;
  name: string;
  createdBy: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

interface TokenRow {
  id: number;
  kind: string;
  name: string;
  created_by: number | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = `id::int AS id, kind, name, created_by::int AS created_by, created_at, last_used_at, revoked_at`;

function toRecord(row: TokenRow): IntegrationTokenRecord {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** The company's webhook tokens (never their hashes), newest first; revoked ones included, marked. */
export async function listIntegrationTokens(
  q: Queryable,
  companyId: number,
): Promise<IntegrationTokenRecord[]> {
  const { rows } = await q.query<TokenRow>(
    `SELECT ${COLUMNS} FROM integration_tokens
      WHERE company_id = $1 AND kind = ANY($2::text[]) ORDER BY created_at DESC, id DESC`,
    [companyId, INTEGRATION_TOKEN_KINDS],
  );
  return rows.map(toRecord);
}

export async function insertIntegrationToken(
  q: Queryable,
  companyId: number,
  input: { kind: IntegrationTokenKind; name: string; tokenHash: string; createdBy: number | null },
): Promise<IntegrationTokenRecord> {
  const { rows } = await q.query<TokenRow>(
    `INSERT INTO integration_tokens (company_id, kind, name, token_hash, created_by)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [companyId, input.kind, input.name, input.tokenHash, input.createdBy],
  );
  const row = rows[0];
  if (!row) throw new Error('insert into integration_tokens returned no row');
  return toRecord(row);
}

/**
 * Revokes a token (kept, with revoked_at, so the list still shows what was once handed out); false when
 * the company has no such token. Revoking twice keeps the first time.
 */
export async function revokeIntegrationToken(q: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE integration_tokens SET revoked_at = coalesce(revoked_at, now())
      WHERE company_id = $1 AND id = $2 AND kind = ANY($3::text[])`,
    [companyId, id, INTEGRATION_TOKEN_KINDS],
  );
  return rowCount > 0;
}

/** How many of the company's webhook tokens are active (shown in a device's integration info). */
export async function countActiveIntegrationTokens(q: Queryable, companyId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM integration_tokens
      WHERE company_id = $1 AND revoked_at IS NULL AND kind = ANY($2::text[])`,
    [companyId, INTEGRATION_TOKEN_KINDS],
  );
  return rows[0]?.n ?? 0;
}

export interface IngestIntegrationToken {
  id: number;
  companyId: number;
  kind: string;
}

/**
 * PostgreSQL announces a changed integration token's id on this channel (migration 0009's trigger);
 * ingest drops it from its cache.
 */
export const INTEGRATION_TOKEN_CHANGED_CHANNEL = 'iot_integration_token_changed';

/** A live (not revoked) integration token by the sha-256 hex of its value. */
export async function findIntegrationTokenByHash(
  q: Queryable,
  tokenHash: string,
): Promise<IngestIntegrationToken | null> {
  const { rows } = await q.query<{ id: number; company_id: number; kind: string }>(
    'SELECT id, company_id, kind FROM integration_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
    [tokenHash],
  );
  const row = rows[0];
  return row ? { id: row.id, companyId: row.company_id, kind: row.kind } : null;
}

/**
 * Records that an integration token authenticated a request: last_used_at = now, unless another process
 * did so less than `throttleSeconds` ago (then the row is not written at all). Migration 0009's trigger
 * announces nothing for this column.
 */
export async function touchIntegrationToken(q: Queryable, id: number, throttleSeconds = 60): Promise<void> {
  await q.query(
    `UPDATE integration_tokens SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
    [id, throttleSeconds],
  );
}
