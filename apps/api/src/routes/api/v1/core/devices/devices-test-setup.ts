import type { DbSuite } from '@iot/db/testing';
import { useRouteApp } from '../../../../../test/route-suite';

export const HOUR = 3_600_000;

/** The device routes' test app, a sign-in, and a device's stored row as the tests compare it. */
export function useDevicesSuite(suite: DbSuite) {
  const { signIn } = useRouteApp(suite);
  async function deviceRow(id: number) {
    const { rows } = await suite.db.query<Record<string, unknown>>(
      `SELECT company_id::int AS company_id, name, state, latitude, group_id::int AS group_id, metadata,
              credentials_hash, updated_at FROM devices WHERE id = $1`,
      [id],
    );
    return rows[0]!;
  }
  return { signIn, deviceRow };
}
