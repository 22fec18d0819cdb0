import { geoMercator } from 'd3-geo';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mercatorPointOf } from './preview-projection';

describe('mercatorPointOf', () => {
  it("puts every point where d3's fitted mercator does", () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.double({ min: -170, max: 170, noNaN: true }),
          fc.double({ min: -80, max: 80, noNaN: true }),
        ),
        fc.tuple(
          fc.double({ min: 0.5, max: 20, noNaN: true }),
          fc.double({ min: 0.5, max: 20, noNaN: true }),
        ),
        fc.tuple(fc.integer({ min: 50, max: 2000 }), fc.integer({ min: 50, max: 2000 })),
        fc.array(
          fc.tuple(
            fc.double({ min: -180, max: 180, noNaN: true }),
            fc.double({ min: -85, max: 85, noNaN: true }),
          ),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
        ([west, south], [spanX, spanY], [width, height], points) => {
          const projection = geoMercator().fitExtent(
            [
              [16, 16],
              [width - 16, height - 16],
            ],
            {
              type: 'MultiPoint',
              coordinates: [
                [west, south],
                [Math.min(180, west + spanX), Math.min(85, south + spanY)],
              ],
            },
          );
          const point = mercatorPointOf(projection);
          for (const [lng, lat] of points) {
            const [x, y] = projection([lng, lat]) as [number, number];
            const [fx, fy] = point(lng, lat);
            expect(Math.abs(fx - x)).toBeLessThan(1e-6 * Math.max(1, Math.abs(x)));
            expect(Math.abs(fy - y)).toBeLessThan(1e-6 * Math.max(1, Math.abs(y)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
