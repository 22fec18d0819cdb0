/**
 * What the farming services share: the manager check (spec section 6: ROLE_ADMIN and ROLE_MAINUSER add
 * and edit farming fields), one transaction per use case under the company's farming lock, and the
 * boundary check with its area computed here (@turf/area), never taken from the client.
 */

import type { Db, Queryable } from '@iot/db';
import { lockCompanyFarming, withTenant } from '@iot/db';
import { type ErrorName, isApiError } from '@iot/domain';
import turfArea from '@turf/area';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export function requireFarmingManager(
  auth: AuthContext,
  code: 'FIELD_NO_PERMISSION' | 'PARCEL_NO_PERMISSION',
) {
  if (!isManager(auth)) throw apiError(code);
}

/** Runs a write under the farming lock; any failure that is not already an API error becomes `code`. */
export async function farmingWrite<T>(
  db: Db,
  auth: AuthContext,
  code: ErrorName,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    return await withTenant(db, auth.companyId, async (tx) => {
      await lockCompanyFarming(tx, auth.companyId);
      return fn(tx);
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError(code);
  }
}

type Position = number[];
interface Geometry {
  type: 'Polygon' | 'MultiPolygon';
  coordinates: Position[][] | Position[][][];
}

function validRing(ring: Position[]): boolean {
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (!first || !last || ring.length < 4) return false;
  const inRange = ring.every(
    ([lng, lat]) =>
      Number.isFinite(lng) && Number.isFinite(lat) && Math.abs(lng!) <= 180 && Math.abs(lat!) <= 90,
  );
  return inRange && first[0] === last[0] && first[1] === last[1];
}

/**
 * A closed WGS84 polygon or multipolygon with a positive area, and that area in m² (20010 otherwise).
 * null stays null (the boundary is removed).
 */
export function checkBoundary(boundary: unknown): { geometry: Geometry; areaM2: number } | null {
  if (boundary === null) return null;
  const geometry = boundary as Geometry;
  const polygons = (
    geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
  ) as Position[][][];
  if (!polygons.every((rings) => rings.every(validRing))) throw apiError('FIELD_BOUNDARY_INVALID');
  const areaM2 = turfArea({ type: 'Feature', properties: {}, geometry } as Parameters<typeof turfArea>[0]);
  if (!(areaM2 > 0)) throw apiError('FIELD_BOUNDARY_INVALID');
  return { geometry, areaM2: Math.round(areaM2 * 100) / 100 };
}
