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

/** A supercluster index over the points; clusters at low zoom keep 10k devices light to draw. */
export function buildClusterIndex(points: readonly MapPoint[]): Supercluster<{ index: number }> {
  const index = new Supercluster<{ index: number }>({ radius: 60, maxZoom: CLUSTER_MAX_ZOOM - 1 });
  index.load(
    points.map((p, i) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [p.longitude, p.latitude] },
      properties: { index: i },
    })),
  );
  return index;
}

/** Clusters and single points inside a bounding box [west, south, east, north] at a zoom. */
export function clusterItems(
  index: Supercluster<{ index: number }>,
  points: readonly MapPoint[],
  bbox: [number, number, number, number],
  zoom: number,
): MapItem[] {
  return index.getClusters(bbox, Math.floor(zoom)).flatMap((feature): MapItem[] => {
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    const props = feature.properties as {
      cluster?: boolean;
      cluster_id?: number;
      point_count?: number;
      index?: number;
    };
    if (props.cluster) {
      return [
        {
          kind: 'cluster',
          clusterId: props.cluster_id ?? 0,
          count: props.point_count ?? 0,
          position: [lng, lat],
        },
      ];
    }
    const point = points[props.index ?? -1];
    return point ? [{ kind: 'point', point, position: [lng, lat] }] : [];
  });
}
