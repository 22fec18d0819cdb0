import { PolygonLayer, ScatterplotLayer } from '@deck.gl/layers';

/**
 * The outline being drawn by clicks (a field's boundary, a car park's outline): its polygon once it has
 * three corners, and a dot at each corner, in the page's accent colour.
 */
export function draftLayers(draft: number[][], [r, g, b]: [number, number, number]) {
  return [
    new PolygonLayer<{ rings: number[][] }>({
      id: 'draft',
      data: draft.length >= 3 ? [{ rings: draft }] : [],
      getPolygon: (d) => d.rings,
      getFillColor: [r, g, b, 75],
      getLineColor: [r, g, b, 255],
      getLineWidth: 2,
      lineWidthUnits: 'pixels',
    }),
    new ScatterplotLayer<number[]>({
      id: 'draft-vertices',
      data: draft,
      getPosition: (d) => [d[0]!, d[1]!],
      getRadius: 5,
      radiusUnits: 'pixels',
      getFillColor: [r, g, b, 255],
    }),
  ];
}
