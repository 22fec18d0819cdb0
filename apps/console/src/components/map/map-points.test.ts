import { describe, expect, it } from 'vitest';
import { hasPosition } from './device-points';
import {
  buildClusterIndex,
  clusterItems,
  clusterRadius,
  DEFAULT_CENTER,
  itemAt,
  type MapItem,
  type MapPoint,
  POINT_RADIUS,
} from './map-points';

function grid(n: number): MapPoint[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    latitude: DEFAULT_CENTER.latitude + (i % 100) * 0.001,
    longitude: DEFAULT_CENTER.longitude + Math.floor(i / 100) * 0.001,
    color: [0, 0, 0],
  }));
}

describe('map clustering (10,000 devices)', () => {
  const points = grid(10_000);
  const index = buildClusterIndex(points);
  const world: [number, number, number, number] = [-180, -85, 180, 85];

  it('zoomed out, 10,000 devices become a handful of clusters that still count every device', () => {
    const items = clusterItems(index, points, world, 8);
    expect(items.length).toBeLessThan(20);
    const total = items.reduce((sum, item) => sum + (item.kind === 'cluster' ? item.count : 1), 0);
    expect(total).toBe(10_000);
  });

  it('zoomed in past the cluster zoom, every device in view is its own point', () => {
    const bbox: [number, number, number, number] = [7.5765, 48.0414, 7.5776, 48.0425];
    const items = clusterItems(index, points, bbox, 16);
    expect(items.every((i) => i.kind === 'point')).toBe(true);
    expect(items.length).toBeGreaterThan(0);
  });
});

describe('hasPosition', () => {
  it.each([
    [48.04, 7.57, true],
    [null, 7.57, false],
    [91, 7.57, false],
    [48, 181, false],
    [0, 0, false],
    [Number.NaN, 1, false],
  ])('%s, %s -> %s', (lat, lng, ok) => {
    expect(hasPosition(lat, lng)).toBe(ok);
  });
});

describe('itemAt (what a click or the cursor hits)', () => {
  // A plain projection for the test: a position's pixel is its coordinates times ten.
  const project = ([lng, lat]: [number, number]) => ({ x: lng * 10, y: lat * 10 });
  const point = (id: number, x: number, y: number): MapItem => ({
    kind: 'point',
    point: { id, longitude: x / 10, latitude: y / 10, color: [0, 0, 0] },
    position: [x / 10, y / 10],
  });
  const cluster = (clusterId: number, count: number, x: number, y: number): MapItem => ({
    kind: 'cluster',
    clusterId,
    count,
    position: [x / 10, y / 10],
  });

  it('hits a device inside its circle and outline, with a little slack, and nothing beyond', () => {
    const items = [point(1, 100, 100)];
    expect(itemAt(items, project, 100, 100)).toBe(items[0]);
    expect(itemAt(items, project, 100 + POINT_RADIUS + 3, 100)).toBe(items[0]);
    expect(itemAt(items, project, 100 + POINT_RADIUS + 5, 100)).toBeNull();
    expect(itemAt([], project, 100, 100)).toBeNull();
  });

  it('takes the device over a cluster, and the last drawn of overlapping devices', () => {
    const items = [cluster(9, 50, 100, 100), point(1, 104, 100), point(2, 106, 100)];
    expect(itemAt(items, project, 105, 100)).toBe(items[2]);
    // Within the cluster's circle but off both devices: the cluster.
    expect(itemAt(items, project, 100, 100 + clusterRadius(50) - 2)).toBe(items[0]);
  });

  it('sizes the hit area of a cluster by its count, as drawn', () => {
    const small = [cluster(1, 2, 100, 100)];
    const large = [cluster(2, 5000, 100, 100)];
    const y = 100 + clusterRadius(2) + 10;
    expect(itemAt(small, project, 100, y)).toBeNull();
    expect(itemAt(large, project, 100, y)).toBe(large[0]);
  });
});
