import turfArea from '@turf/area';
import type { FarmingField, FieldBoundary } from '../api/farming-api';

/** The outer rings of a boundary, as deck.gl polygons take them. */
export function ringsOf(boundary: FieldBoundary | null): number[][][][] {
  if (!boundary) return [];
  return boundary.type === 'Polygon' ? [boundary.coordinates] : boundary.coordinates;
}

/** A closed polygon from drawn vertices (null below three). */
export function polygonFrom(vertices: number[][]): FieldBoundary | null {
  if (vertices.length < 3) return null;
  return { type: 'Polygon', coordinates: [[...vertices, vertices[0]!]] };
}

/** Area in m² as the server computes it (@turf/area), shown live while drawing. */
export function areaOf(boundary: FieldBoundary | null): number {
  if (!boundary) return 0;
  return turfArea({ type: 'Feature', properties: {}, geometry: boundary } as Parameters<typeof turfArea>[0]);
}

/** The boundary differs from the parcels' sum by more than 10 % (issue 24: the console says so). */
export function differsFromParcels(boundaryAreaM2: number | null, sizeM2: number): boolean {
  if (!boundaryAreaM2 || !sizeM2) return false;
  return Math.abs(boundaryAreaM2 - sizeM2) / sizeM2 > 0.1;
}

export function centreOf(field: FarmingField): [number, number] | null {
  const ring = ringsOf(field.boundary)[0]?.[0];
  if (!ring || ring.length === 0) return null;
  const pts = ring.slice(0, -1);
  const lng = pts.reduce((s, p) => s + p[0]!, 0) / pts.length;
  const lat = pts.reduce((s, p) => s + p[1]!, 0) / pts.length;
  return [lng, lat];
}
