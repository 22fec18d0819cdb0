/**
 * Stamping a small straight-alpha image (a device's dot) into the pixels of an opaque canvas, many times.
 * The map preview stamps one per device: 10,000 in a fleet. Blending each pixel of each dot took 35 to
 * 85 ms of the dashboard's main thread in headless Chromium; a dot is mostly opaque, so its opaque pixels
 * are copied whole (one 32-bit store) and only its anti-aliased rim is blended.
 */

/** Pixels in the layout of ImageData: RGBA rows, top to bottom. */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** Samples per pixel along each axis for a dot's anti-aliased edge. */
const SAMPLES = 4;

/**
 * A device's dot: a disc of `color`, `radius` CSS pixels, with a white ring of 1 CSS pixel on its edge, in
 * device pixels at this ratio, anti-aliased by 4 x 4 samples per pixel. Drawn in JS: a canvas per colour,
 * drawn and read back, took longer than stamping the 10,000 dots.
 */
export function dotPixels(color: readonly [number, number, number], radius: number, ratio: number): Pixels {
  const size = Math.ceil((radius + 1) * 2 * ratio);
  const centre = radius + 1;
  const data = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      let fill = 0;
      let ring = 0;
      for (let sy = 0; sy < SAMPLES; sy++)
        for (let sx = 0; sx < SAMPLES; sx++) {
          const d = Math.hypot(
            (x + (sx + 0.5) / SAMPLES) / ratio - centre,
            (y + (sy + 0.5) / SAMPLES) / ratio - centre,
          );
          if (d <= radius - 0.5) fill++;
          else if (d <= radius + 0.5) ring++;
        }
      const covered = fill + ring;
      if (covered === 0) continue;
      const i = (y * size + x) * 4;
      for (let c = 0; c < 3; c++) data[i + c] = ((color[c] ?? 0) * fill + 255 * ring) / covered;
      data[i + 3] = (255 * covered) / (SAMPLES * SAMPLES);
    }
  return { width: size, height: size, data };
}

/** A sprite prepared for stamping into one canvas width: offsets are relative to its top left pixel. */
export interface DotStamp {
  sprite: Pixels;
  /** canvas pixel offsets of the opaque pixels, and those pixels as 32-bit words */
  solidAt: Int32Array;
  solid: Uint32Array;
  /** canvas pixel offsets of the partly covered pixels, and their RGBA bytes */
  softAt: Int32Array;
  soft: Uint8Array;
}

function words(pixels: Uint8ClampedArray): Uint32Array {
  return new Uint32Array(pixels.buffer, pixels.byteOffset, pixels.byteLength >> 2);
}

/** Prepares `sprite` for a canvas `canvasWidth` pixels wide. */
export function dotStamp(sprite: Pixels, canvasWidth: number): DotStamp {
  const solidAt: number[] = [];
  const solid: number[] = [];
  const softAt: number[] = [];
  const soft: number[] = [];
  const spriteWords = words(sprite.data);
  for (let y = 0; y < sprite.height; y++)
    for (let x = 0; x < sprite.width; x++) {
      const i = y * sprite.width + x;
      const alpha = sprite.data[i * 4 + 3] ?? 0;
      if (alpha === 0) continue;
      const at = y * canvasWidth + x;
      if (alpha === 255) {
        solidAt.push(at);
        solid.push(spriteWords[i] ?? 0);
      } else {
        softAt.push(at);
        soft.push(...sprite.data.subarray(i * 4, i * 4 + 4));
      }
    }
  return {
    sprite,
    solidAt: Int32Array.from(solidAt),
    solid: Uint32Array.from(solid),
    softAt: Int32Array.from(softAt),
    soft: Uint8Array.from(soft),
  };
}

/**
 * `stamp` over the opaque `canvas` with its top left pixel at (left, top). `canvasWords` is the canvas's
 * data as 32-bit words (made once per canvas, not per dot). A dot across the canvas's edge takes the slow
 * path, which clips each pixel.
 */
export function stampDot(
  canvas: Pixels,
  canvasWords: Uint32Array,
  stamp: DotStamp,
  left: number,
  top: number,
): void {
  const { sprite } = stamp;
  if (left < 0 || top < 0 || left + sprite.width > canvas.width || top + sprite.height > canvas.height) {
    blendOver(canvas, sprite, left, top);
    return;
  }
  const origin = top * canvas.width + left;
  const { solidAt, solid, softAt, soft } = stamp;
  for (let i = 0; i < solidAt.length; i++) canvasWords[origin + (solidAt[i] ?? 0)] = solid[i] ?? 0;
  const pixels = canvas.data;
  for (let i = 0; i < softAt.length; i++) {
    const d = (origin + (softAt[i] ?? 0)) * 4;
    const alpha = soft[i * 4 + 3] ?? 0;
    const keep = 255 - alpha;
    pixels[d] = ((soft[i * 4] ?? 0) * alpha + (pixels[d] ?? 0) * keep) / 255;
    pixels[d + 1] = ((soft[i * 4 + 1] ?? 0) * alpha + (pixels[d + 1] ?? 0) * keep) / 255;
    pixels[d + 2] = ((soft[i * 4 + 2] ?? 0) * alpha + (pixels[d + 2] ?? 0) * keep) / 255;
  }
}

/**
 * `sprite` (straight alpha) over the opaque `canvas` at (left, top), pixel by pixel, clipped to the canvas.
 * The canvas stays opaque: its alpha is left as it is.
 */
export function blendOver(canvas: Pixels, sprite: Pixels, left: number, top: number): void {
  const from = sprite.data;
  const pixels = canvas.data;
  for (let sy = Math.max(0, -top); sy < sprite.height && top + sy < canvas.height; sy++) {
    for (let sx = Math.max(0, -left); sx < sprite.width && left + sx < canvas.width; sx++) {
      const s = (sy * sprite.width + sx) * 4;
      const alpha = from[s + 3] ?? 0;
      if (alpha === 0) continue;
      const d = ((top + sy) * canvas.width + left + sx) * 4;
      const keep = 255 - alpha;
      for (let c = 0; c < 3; c++)
        pixels[d + c] = ((from[s + c] ?? 0) * alpha + (pixels[d + c] ?? 0) * keep) / 255;
    }
  }
}

/** A canvas's data as 32-bit words, for stampDot. */
export const canvasWords = (canvas: Pixels): Uint32Array => words(canvas.data);
