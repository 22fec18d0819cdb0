/**
 * The parking module's part of the matrix world (matrix-parking-routes.ts): kept apart from the rows so
 * matrix-world.ts can import it without a cycle.
 */
import type { Db } from '@iot/db';

const homeAreas = new WeakMap<object, number>();

/** The home company's car park of a world seeded by seedParkingWorld. */
export const homeParkingAreaOf = (world: object) => homeAreas.get(world);

/**
 * Licenses parking to both companies of the world (not the external API: its refusal stays in the
 * matrix) and gives the home company a car park.
 */
export async function seedParkingWorld(
  db: Db,
  world: { homeId: number },
  otherCompanyId: number,
): Promise<void> {
  await db.query(
    `UPDATE companies SET modules = ARRAY(SELECT DISTINCT unnest(modules || '{parking}'::text[]))
      WHERE id = ANY($1::bigint[])`,
    [[world.homeId, otherCompanyId]],
  );
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO parking_areas (company_id, name, type, capacity) VALUES ($1, 'Matrix car park', 'AI', 10)
     RETURNING id::int AS id`,
    [world.homeId],
  );
  homeAreas.set(world, rows[0]!.id);
}
