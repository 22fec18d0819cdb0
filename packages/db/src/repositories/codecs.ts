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
