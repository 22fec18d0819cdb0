import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blendOver, canvasWords, dotPixels, dotStamp, type Pixels, stampDot } from './dot-stamps';

/** Pixels of this size with bytes from `bytes` (cycled), the alpha from `alpha` (opaque when missing). */
function pixels(width: number, height: number, bytes: number[], alpha?: number[]): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) data[i * 4 + c] = bytes[(i * 3 + c) % bytes.length] ?? 0;
    data[i * 4 + 3] = alpha ? (alpha[i % alpha.length] ?? 0) : 255;
  }
  return { width, height, data };
}

const copy = (p: Pixels): Pixels => ({ ...p, data: new Uint8ClampedArray(p.data) });

/** Alphas as a dot has them: mostly transparent or opaque, some in between. */
const alphaArb = fc.oneof(fc.constant(0), fc.constant(255), fc.integer({ min: 1, max: 254 }));
const byteArb = fc.integer({ min: 0, max: 255 });

describe('stampDot', () => {
  it('leaves the same pixels as blending each pixel, wherever the dot lands', () => {
    fc.assert(
      fc.property(
        fc.record({
          canvas: fc.record({
            width: fc.integer({ min: 1, max: 30 }),
            height: fc.integer({ min: 1, max: 30 }),
            bytes: fc.array(byteArb, { minLength: 1, maxLength: 40 }),
          }),
          sprite: fc.record({
            width: fc.integer({ min: 1, max: 12 }),
            height: fc.integer({ min: 1, max: 12 }),
            bytes: fc.array(byteArb, { minLength: 1, maxLength: 40 }),
            alpha: fc.array(alphaArb, { minLength: 1, maxLength: 40 }),
          }),
          at: fc.array(fc.tuple(fc.integer({ min: -14, max: 34 }), fc.integer({ min: -14, max: 34 })), {
            minLength: 1,
            maxLength: 8,
          }),
        }),
        ({ canvas: c, sprite: s, at }) => {
          const canvas = pixels(c.width, c.height, c.bytes);
          const sprite = pixels(s.width, s.height, s.bytes, s.alpha);
          const expected = copy(canvas);
          for (const [left, top] of at) blendOver(expected, sprite, left, top);
          const stamp = dotStamp(sprite, canvas.width);
          const words = canvasWords(canvas);
          for (const [left, top] of at) stampDot(canvas, words, stamp, left, top);
          expect(canvas.data).toEqual(expected.data);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('copies opaque pixels whole and blends the rim over what is below', () => {
    // A 2 x 1 sprite: an opaque red pixel and a half-covered blue one, stamped on grey.
    const sprite: Pixels = {
      width: 2,
      height: 1,
      data: new Uint8ClampedArray([255, 0, 0, 255, 0, 0, 255, 128]),
    };
    const canvas = pixels(3, 2, [100]);
    stampDot(canvas, canvasWords(canvas), dotStamp(sprite, canvas.width), 1, 1);
    expect([...canvas.data.subarray(16, 24)]).toEqual([
      255,
      0,
      0,
      255,
      Math.round((100 * 127) / 255),
      Math.round((100 * 127) / 255),
      Math.round((255 * 128 + 100 * 127) / 255),
      255,
    ]);
    // The first row is untouched.
    expect([...canvas.data.subarray(0, 12)]).toEqual([
      100, 100, 100, 255, 100, 100, 100, 255, 100, 100, 100, 255,
    ]);
  });
});

describe('dotPixels', () => {
  const pixel = (p: Pixels, x: number, y: number) => [
    ...p.data.subarray((y * p.width + x) * 4, (y * p.width + x) * 4 + 4),
  ];

  it.each([1, 2])(
    'draws an opaque disc of the colour in a white ring, soft at its edge (ratio %i)',
    (ratio) => {
      const dot = dotPixels([22, 163, 74], 4, ratio);
      expect(dot.width).toBe(10 * ratio);
      expect(dot.height).toBe(10 * ratio);
      const middle = 5 * ratio;
      expect(pixel(dot, middle, middle)).toEqual([22, 163, 74, 255]);
      // The ring sits 4 CSS pixels from the centre: white, mixed with the disc where it shares a pixel.
      const ring = pixel(dot, middle, middle - 4 * ratio);
      expect(ring[3]).toBe(255);
      for (let c = 0; c < 3; c++) expect(ring[c]).toBeGreaterThan([22, 163, 74][c] as number);
      if (ratio === 2) expect(ring).toEqual([255, 255, 255, 255]);
      // The corners are outside the dot.
      expect(pixel(dot, 0, 0)[3]).toBe(0);
      expect(pixel(dot, dot.width - 1, dot.height - 1)[3]).toBe(0);
      // Some pixels are partly covered: the edge is anti-aliased.
      const alphas = new Set(Array.from({ length: dot.width * dot.height }, (_, i) => dot.data[i * 4 + 3]));
      expect([...alphas].some((a) => a !== undefined && a > 0 && a < 255)).toBe(true);
    },
  );
});
