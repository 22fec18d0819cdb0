import { describe, expect, it } from 'vitest';
import { hasPosition } from './device-points';
import { buildClusterIndex, clusterItems, DEFAULT_CENTER, type MapPoint } from './map-points';

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
