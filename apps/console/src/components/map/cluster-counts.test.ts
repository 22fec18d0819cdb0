import { describe, expect, it } from 'vitest';
import { clusterCountLabels } from './cluster-counts';
import type { MapItem } from './map-points';

const items: MapItem[] = [
  { kind: 'cluster', clusterId: 1, count: 1234, position: [10, 20] },
  { kind: 'point', point: { id: 7, longitude: 11, latitude: 21, color: [0, 0, 0] }, position: [11, 21] },
  { kind: 'cluster', clusterId: 2, count: 5, position: [12, 22] },
  { kind: 'cluster', clusterId: 3, count: 9, position: [90, 0] },
];
// A stand-in for map.project: 10 px per degree.
const project = ([lng, lat]: [number, number]) => ({ x: lng * 10, y: lat * 10 });

describe('clusterCountLabels', () => {
  it('labels every cluster in view at its projected pixel, formatted per locale, and no single device', () => {
    const german = new Intl.NumberFormat('de-DE');
    const labels = clusterCountLabels(items, project, (n) => german.format(n), 400, 300);
    expect(labels).toEqual([
      { x: 100, y: 200, text: '1.234' },
      { x: 120, y: 220, text: '5' },
    ]);
  });

  it('leaves out clusters projected well off the canvas (900 px on a 400 px wide map)', () => {
    const labels = clusterCountLabels(items, project, String, 400, 300);
    expect(labels.map((l) => l.text)).not.toContain('9');
    expect(clusterCountLabels(items, project, String, 1000, 300).map((l) => l.text)).toContain('9');
  });
});
