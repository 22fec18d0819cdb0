import Supercluster from 'supercluster';

/** Default map centre (spec section 9). */
export const DEFAULT_CENTER = { latitude: 48.041477, longitude: 7.576644 } as const;
export const DEFAULT_ZOOM = 11;
/** From this zoom on every device is drawn on its own (supercluster's maxZoom + 1). */
export const CLUSTER_MAX_ZOOM = 14;

export interface MapPoint {
  id: number;
  longitude: number;
  latitude: number;
  color: [number, number, number];
}

export type MapItem =
  | { kind: 'point'; point: MapPoint; position: [number, number] }
  | { kind: 'cluster'; clusterId: number; count: number; position: [number, number] };

/** A supercluster index over these coordinates; clusters at low zoom keep 10k devices light to draw. */
export function buildClusterIndexFromCoords(
  longitude: ArrayLike<number>,
  latitude: ArrayLike<number>,
): Supercluster<{ index: number }> {
  const index = new Supercluster<{ index: number }>({ radius: 60, maxZoom: CLUSTER_MAX_ZOOM - 1 });
  const features: Parameters<Supercluster<{ index: number }>['load']>[0] = new Array(longitude.length);
  for (let i = 0; i < longitude.length; i++) {
    features[i] = {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [longitude[i] as number, latitude[i] as number] },
      properties: { index: i },
    };
  }
  index.load(features);
  return index;
}

/** A supercluster index over the points. */
export function buildClusterIndex(points: readonly MapPoint[]): Supercluster<{ index: number }> {
  return buildClusterIndexFromCoords(
    points.map((p) => p.longitude),
    points.map((p) => p.latitude),
  );
}

/**
 * Clusters and single points inside a bounding box [west, south, east, north] at a zoom, four numbers each
 * (so a worker can hand them over without copying): longitude, latitude, then the cluster id and its
 * count, or the point's index and 0.
 */
export function encodeClusters(
  index: Supercluster<{ index: number }>,
  bbox: [number, number, number, number],
  zoom: number,
): Float64Array {
  const features = index.getClusters(bbox, Math.floor(zoom));
  const out = new Float64Array(features.length * 4);
  features.forEach((feature, i) => {
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    const props = feature.properties as {
      cluster?: boolean;
      cluster_id?: number;
      point_count?: number;
      index?: number;
    };
    out[i * 4] = lng;
    out[i * 4 + 1] = lat;
    out[i * 4 + 2] = props.cluster ? (props.cluster_id ?? 0) : (props.index ?? -1);
    out[i * 4 + 3] = props.cluster ? (props.point_count ?? 0) : 0;
  });
  return out;
}

/** The items of encodeClusters, with the points they index. */
export function decodeClusters(encoded: Float64Array, points: readonly MapPoint[]): MapItem[] {
  const items: MapItem[] = [];
  for (let i = 0; i < encoded.length; i += 4) {
    const position: [number, number] = [encoded[i] as number, encoded[i + 1] as number];
    const count = encoded[i + 3] as number;
    if (count > 0) {
      items.push({ kind: 'cluster', clusterId: encoded[i + 2] as number, count, position });
    } else {
      const point = points[encoded[i + 2] as number];
      if (point) items.push({ kind: 'point', point, position });
    }
  }
  return items;
}

/** Clusters and single points inside a bounding box [west, south, east, north] at a zoom. */
export function clusterItems(
  index: Supercluster<{ index: number }>,
  points: readonly MapPoint[],
  bbox: [number, number, number, number],
  zoom: number,
): MapItem[] {
  return decodeClusters(encodeClusters(index, bbox, zoom), points);
}
