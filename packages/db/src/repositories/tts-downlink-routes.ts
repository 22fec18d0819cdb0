/**
 * Where a device's downlinks go in The Things Stack v3 (migration 0022): the push URL and API key its
 * webhook sent with its last uplink. Ingest saves them (`saveTtsDownlinkRoute`, only when they changed);
 * the notifier reads them within the device's company (`findTtsDownlinkRoute`).
 */
import type { Queryable } from '../db';

export interface TtsDownlinkRoute {
  pushUrl: string;
  apiKey: string;
}

/** Saves the route of a device of `companyId`; a route equal to the stored one writes nothing. */
export async function saveTtsDownlinkRoute(
  q: Queryable,
  companyId: number,
  deviceId: number,
  route: TtsDownlinkRoute,
): Promise<void> {
  await q.query(
    `INSERT INTO tts_downlink_routes AS r (device_id, company_id, push_url, api_key)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (device_id) DO UPDATE
        SET company_id = EXCLUDED.company_id, push_url = EXCLUDED.push_url, api_key = EXCLUDED.api_key,
            updated_at = now()
      WHERE (r.company_id, r.push_url, r.api_key) IS DISTINCT FROM
            (EXCLUDED.company_id, EXCLUDED.push_url, EXCLUDED.api_key)`,
    [deviceId, companyId, route.pushUrl, route.apiKey],
  );
}

export async function findTtsDownlinkRoute(
  q: Queryable,
  companyId: number,
  deviceId: number,
): Promise<TtsDownlinkRoute | undefined> {
  const { rows } = await q.query<{ push_url: string; api_key: string }>(
    'SELECT push_url, api_key FROM tts_downlink_routes WHERE company_id = $1 AND device_id = $2',
    [companyId, deviceId],
  );
  const row = rows[0];
  return row ? { pushUrl: row.push_url, apiKey: row.api_key } : undefined;
}
