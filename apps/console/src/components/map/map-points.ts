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

/** Drawn radius (CSS px) of a single device's circle, and the width of its white outline. */
export const POINT_RADIUS = 7;
export const POINT_OUTLINE = 1.5;
/** Width (CSS px) of a cluster circle's white outline. */
export const CLUSTER_OUTLINE = 2;

/** Drawn radius (CSS px) of a cluster's circle: it grows with the log of its count, up to 40. */
export function clusterRadius(count: number): number {
  return 14 + Math.min(26, Math.log2(count) * 3);
}

/** CSS px around a circle that still hit it, for a finger or an unsteady hand. */
const HIT_SLOP = 3;

/**
 * The item drawn at (x, y), CSS px from the map canvas's top left, or null. Devices lie over clusters and,
 * within a layer, later items over earlier ones, as deck.gl draws them; the outline straddles the radius.
 */
export function itemAt(
  items: readonly MapItem[],
  project: (position: [number, number]) => { x: number; y: number },
  x: number,
  y: number,
): MapItem | null {
  let cluster: MapItem | null = null;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as MapItem;
    if (item.kind === 'cluster' && cluster) continue;
    const reach =
      (item.kind === 'point'
        ? POINT_RADIUS + POINT_OUTLINE / 2
        : clusterRadius(item.count) + CLUSTER_OUTLINE / 2) + HIT_SLOP;
    const at = project(item.position);
    const dx = at.x - x;
    const dy = at.y - y;
    if (dx * dx + dy * dy > reach * reach) continue;
    if (item.kind === 'point') return item;
    cluster = item;
  }
  return cluster;
}
