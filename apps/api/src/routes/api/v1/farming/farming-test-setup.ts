import type { Db } from '@iot/db';
import { createTeam } from '../../../../test/fixtures';

/** A farming company (module licensed), optionally in Germany (FLIK rules apply). */
export async function createFarmingTeam(db: Db, options: { german?: boolean } = {}) {
  const team = await createTeam(db, { modules: ['farming'] });
  if (options.german ?? true) {
    await db.query(
      `UPDATE companies SET country_id = (SELECT id FROM countries WHERE code = 'DE') WHERE id = $1`,
      [team.company.id],
    );
  }
  return team;
}

/** A closed square of about `side` metres near Freiburg (48.04 N, 7.57 E). */
export function square(lng: number, lat: number, side = 100) {
  const dLat = side / 111_320;
  const dLng = side / (111_320 * Math.cos((lat * Math.PI) / 180));
  return {
    type: 'Polygon' as const,
    coordinates: [
      [
        [lng, lat],
        [lng + dLng, lat],
        [lng + dLng, lat + dLat],
        [lng, lat + dLat],
        [lng, lat],
      ],
    ],
  };
}
