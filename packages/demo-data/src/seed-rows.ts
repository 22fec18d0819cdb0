import type { Queryable } from '@iot/db';
import type { DemoDeviceKind } from './demo-fleet.js';

/** Where the demo companies sit and their devices scatter around (Freiburg im Breisgau). */
export const MAP_CENTRE = { latitude: 48.041477, longitude: 7.576644 };

/** Inserts one row and returns its id (the statement ends in RETURNING id). */
export async function insertId(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`insert returned no id: ${sql}`);
  return id;
}

/** A seeded device and the fleet kind it was made from (`index`: its place among that kind's names). */
export interface SeededDevice {
  id: number;
  kind: DemoDeviceKind;
  index: number;
}
