/**
 * The company's LoRaWAN network server for downlinks (migration 0021): where its API is and the token the
 * notifier presents there. The token is read only by the notifier (`findNetworkServer`); what the API shows
 * is `NetworkServerRecord`, without it.
 */
import type { Queryable } from '../db';

export const NETWORK_SERVER_KINDS = ['chirpstack'] as const;
export type NetworkServerKind = (typeof NETWORK_SERVER_KINDS)[number];

export interface NetworkServerRecord {
  kind: NetworkServerKind;
  apiUrl: string;
  updatedBy: number | null;
  updatedAt: Date;
}

/** With the API token, for the one that uses it. */
export interface NetworkServerAccess {
  kind: NetworkServerKind;
  apiUrl: string;
  apiToken: string;
}

export async function getNetworkServer(
  q: Queryable,
  companyId: number,
): Promise<NetworkServerRecord | undefined> {
  const { rows } = await q.query<{
    kind: NetworkServerKind;
    api_url: string;
    updated_by: number | null;
    updated_at: Date;
  }>(
    'SELECT kind, api_url, updated_by::int AS updated_by, updated_at FROM network_servers WHERE company_id = $1',
    [companyId],
  );
  const row = rows[0];
  return row
    ? { kind: row.kind, apiUrl: row.api_url, updatedBy: row.updated_by, updatedAt: row.updated_at }
    : undefined;
}

export async function findNetworkServer(
  q: Queryable,
  companyId: number,
): Promise<NetworkServerAccess | undefined> {
  const { rows } = await q.query<{ kind: NetworkServerKind; api_url: string; api_token: string }>(
    'SELECT kind, api_url, api_token FROM network_servers WHERE company_id = $1',
    [companyId],
  );
  const row = rows[0];
  return row ? { kind: row.kind, apiUrl: row.api_url, apiToken: row.api_token } : undefined;
}

/**
 * Sets the company's network server. `apiToken` undefined keeps the stored token (the console sends it only
 * when it changes); false when there is none to keep.
 */
export async function saveNetworkServer(
  q: Queryable,
  companyId: number,
  input: { kind: NetworkServerKind; apiUrl: string; apiToken: string | undefined; updatedBy: number | null },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO network_servers AS n (company_id, kind, api_url, api_token, updated_by)
     SELECT $1, $2, $3, t.token, $5
       FROM (SELECT COALESCE($4::text, (SELECT api_token FROM network_servers WHERE company_id = $1)) AS token) t
      WHERE t.token IS NOT NULL
     ON CONFLICT (company_id) DO UPDATE
        SET kind = EXCLUDED.kind, api_url = EXCLUDED.api_url, api_token = EXCLUDED.api_token,
            updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [companyId, input.kind, input.apiUrl, input.apiToken ?? null, input.updatedBy],
  );
  return (rowCount ?? 0) > 0;
}

export async function deleteNetworkServer(q: Queryable, companyId: number): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM network_servers WHERE company_id = $1', [companyId]);
  return (rowCount ?? 0) > 0;
}
