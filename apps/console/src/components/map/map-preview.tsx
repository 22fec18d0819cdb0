import { geoMercator, geoPath } from 'd3-geo';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
// Natural Earth 1:110m (world-atlas): a preview needs no more, and converting it takes a few milliseconds.
import countriesUrl from 'world-atlas/countries-110m.json?url';
import statesUrl from './germany-states.json?url';
import type { MapPoint } from './map-points';

/**
 * A still picture of the device map on a 2D canvas: the offline base shapes at low resolution and the
 * devices, fitted to their bounds in web mercator (d3-geo). No WebGL, no MapLibre: a dashboard shows its
 * devices at once, and the interactive map (lazy-device-map.tsx) starts only when the user turns to it.
 */
const WATER = '#cddfea';
const LAND = '#f4f2ec';
const BORDER = '#8f9aa6';
const STATE_BORDER = '#a7b0ba';
const POINT_RADIUS = 4;
/** Without devices the preview shows Germany (west, south, east, north). */
const GERMANY: [number, number, number, number] = [5.8, 47.2, 15.1, 55.1];
/** The smallest span shown, in degrees: one device (or many in one place) is not fitted to a pixel. */
const MIN_SPAN = 0.5;
const PADDING = 16;

/** West, south, east, north in degrees. */
type Box = [number, number, number, number];

/** A shape's parts (polygons or lines) with their boxes, so a draw projects only the ones in view. */
interface Parts<T> {
  parts: T[];
  boxes: Box[];
}

interface PreviewShapes {
  land: Parts<GeoJSON.Position[][]>;
  borders: Parts<GeoJSON.Position[]>;
  states: Parts<GeoJSON.Position[]>;
}

function boxOf(lines: readonly GeoJSON.Position[][]): Box {
  const box: Box = [180, 90, -180, -90];
  for (const line of lines)
    for (const [lng = 0, lat = 0] of line) {
      box[0] = Math.min(box[0], lng);
      box[1] = Math.min(box[1], lat);
      box[2] = Math.max(box[2], lng);
      box[3] = Math.max(box[3], lat);
    }
  return box;
}

function polygonsOf(shape: GeoJSON.Feature | GeoJSON.FeatureCollection): Parts<GeoJSON.Position[][]> {
  const features = shape.type === 'FeatureCollection' ? shape.features : [shape];
  const parts = features.flatMap(({ geometry: g }) =>
    g.type === 'MultiPolygon' ? g.coordinates : g.type === 'Polygon' ? [g.coordinates] : [],
  );
  return { parts, boxes: parts.map(boxOf) };
}

function linesOf(shape: GeoJSON.MultiLineString): Parts<GeoJSON.Position[]> {
  return { parts: shape.coordinates, boxes: shape.coordinates.map((line) => boxOf([line])) };
}

/** The parts whose box meets `view` (a part across the antimeridian spans every longitude: kept). */
function inView<T>({ parts, boxes }: Parts<T>, view: Box): T[] {
  return parts.filter((_, i) => {
    const [west, south, east, north] = boxes[i] as Box;
    return west <= view[2] && east >= view[0] && south <= view[3] && north >= view[1];
  });
}

let shapes: Promise<PreviewShapes> | null = null;

async function fetchTopology(url: string): Promise<Topology> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`map preview: ${response.status}`);
  return (await response.json()) as Topology;
}

/** The 1:110m shapes, fetched and converted once per page. */
function previewShapes(): Promise<PreviewShapes> {
  shapes ??= Promise.all([fetchTopology(countriesUrl), fetchTopology(statesUrl)])
    .then(([world, germany]) => ({
      land: polygonsOf(feature(world, world.objects.land as GeometryCollection)),
      borders: linesOf(mesh(world, world.objects.countries as GeometryCollection, (a, b) => a !== b)),
      states: linesOf(mesh(germany, germany.objects.states as GeometryCollection, (a, b) => a !== b)),
    }))
    .catch((error: unknown) => {
      shapes = null;
      throw error;
    });
  return shapes;
}

/**
 * Starts fetching and converting the base shapes, so a preview mounted later draws at once: the dashboard
 * calls it with the dashboards' answer, beside the widgets' data (lazy-widgets.tsx). A failure is left to
 * the preview, which asks again.
 */
export function preloadPreviewShapes(): void {
  previewShapes().catch(() => undefined);
}

/** The points' bounds (west, south, east, north), at least MIN_SPAN wide and high; Germany without points. */
export function previewBounds(points: readonly MapPoint[]): [number, number, number, number] {
  if (points.length === 0) return GERMANY;
  let [west, south, east, north] = [180, 90, -180, -90];
  for (const p of points) {
    west = Math.min(west, p.longitude);
    east = Math.max(east, p.longitude);
    south = Math.min(south, p.latitude);
    north = Math.max(north, p.latitude);
  }
  const grow = (low: number, high: number): [number, number] => {
    const missing = Math.max(0, MIN_SPAN - (high - low)) / 2;
    return [low - missing, high + missing];
  };
  [west, east] = grow(west, east);
  [south, north] = grow(south, north);
  return [west, Math.max(-85, south), east, Math.min(85, north)];
}

/** Draws the base shapes and the points on a canvas of this CSS size. */
function draw(
  canvas: HTMLCanvasElement,
  width: number,
  height: number,
  base: PreviewShapes | null,
  points: readonly MapPoint[],
) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  // A canvas in memory, rasterised on the CPU: a still picture drawn once needs no GPU canvas, and with
  // a software GPU (SwiftShader, headless) tessellating 10,000 arcs held the page's frames for seconds.
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.fillStyle = WATER;
  ctx.fillRect(0, 0, width, height);
  const [west, south, east, north] = previewBounds(points);
  const corners: GeoJSON.MultiPoint = {
    type: 'MultiPoint',
    coordinates: [
      [west, south],
      [east, north],
    ],
  };
  const projection = geoMercator()
    .fitExtent(
      [
        [PADDING, PADDING],
        [width - PADDING, height - PADDING],
      ],
      corners,
    )
    .clipExtent([
      [0, 0],
      [width, height],
    ])
    // No adaptive resampling: the 1:110m lines are coarse anyway, and at a fleet's zoom it multiplied them.
    .precision(0);
  const path = geoPath(projection, ctx);
  if (base) {
    // Only the parts in view are projected: fitted to a fleet of 60 km, the whole world's coastlines were
    // projected and clipped for a few segments.
    const [west = -180, north = 85] = projection.invert?.([0, 0]) ?? [];
    const [east = 180, south = -85] = projection.invert?.([width, height]) ?? [];
    const view: Box = [west - 1, south - 1, east + 1, north + 1];
    ctx.beginPath();
    path({ type: 'MultiPolygon', coordinates: inView(base.land, view) });
    ctx.fillStyle = LAND;
    ctx.fill();
    ctx.lineWidth = 0.7;
    ctx.setLineDash([3, 2]);
    ctx.beginPath();
    path({ type: 'MultiLineString', coordinates: inView(base.states, view) });
    ctx.strokeStyle = STATE_BORDER;
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.lineWidth = 0.8;
    ctx.beginPath();
    path({ type: 'MultiLineString', coordinates: inView(base.borders, view) });
    ctx.strokeStyle = BORDER;
    ctx.stroke();
  }
  drawPoints(ctx, points, (p) => projection([p.longitude, p.latitude]));
}

/** A device's dot in one colour with its white ring, in device pixels, drawn once per colour. */
function dotSprite(color: string, ratio: number): ImageData {
  const size = Math.ceil((POINT_RADIUS + 1) * 2 * ratio);
  const sprite = document.createElement('canvas');
  sprite.width = size;
  sprite.height = size;
  const ctx = sprite.getContext('2d', { willReadFrequently: true });
  if (!ctx) return new ImageData(size, size);
  ctx.scale(ratio, ratio);
  ctx.beginPath();
  ctx.arc(POINT_RADIUS + 1, POINT_RADIUS + 1, POINT_RADIUS, 0, 2 * Math.PI);
  ctx.fillStyle = color;
  ctx.fill();
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 1;
  ctx.stroke();
  return ctx.getImageData(0, 0, size, size);
}

/**
 * The points, stamped from one sprite per colour into the canvas's pixels: 10,000 drawImage calls took
 * about 100 ms of the main thread in headless Chromium, copying the sprites' pixels in JS about a third of
 * that. Dots land on whole device pixels, which a still picture does not show. The canvas is opaque (the
 * water is filled first), so blending a sprite over it keeps it opaque.
 */
function drawPoints(
  ctx: CanvasRenderingContext2D,
  points: readonly MapPoint[],
  project: (p: MapPoint) => [number, number] | null,
) {
  const ratio = window.devicePixelRatio || 1;
  const { width, height } = ctx.canvas;
  const image = ctx.getImageData(0, 0, width, height);
  const pixels = image.data;
  // Keyed by the colour as a number: no string per point (points of a state share one colour anyway).
  const sprites = new Map<number, ImageData>();
  for (const p of points) {
    const xy = project(p);
    if (!xy) continue;
    const [r = 0, g = 0, b = 0] = p.color;
    const key = (r << 16) | (g << 8) | b;
    let sprite = sprites.get(key);
    if (!sprite) {
      sprite = dotSprite(`rgb(${r},${g},${b})`, ratio);
      sprites.set(key, sprite);
    }
    const left = Math.round(xy[0] * ratio) - (sprite.width >> 1);
    const top = Math.round(xy[1] * ratio) - (sprite.height >> 1);
    blendOver(pixels, width, height, sprite, left, top);
  }
  ctx.putImageData(image, 0, 0);
}

/** `sprite` (straight alpha) over the opaque pixels of a `width` x `height` image at (left, top). */
function blendOver(
  pixels: Uint8ClampedArray,
  width: number,
  height: number,
  sprite: ImageData,
  left: number,
  top: number,
) {
  const from = sprite.data;
  for (let sy = Math.max(0, -top); sy < sprite.height && top + sy < height; sy++) {
    for (let sx = Math.max(0, -left); sx < sprite.width && left + sx < width; sx++) {
      const s = (sy * sprite.width + sx) * 4;
      const alpha = from[s + 3] ?? 0;
      if (alpha === 0) continue;
      const d = ((top + sy) * width + left + sx) * 4;
      const keep = 255 - alpha;
      for (let c = 0; c < 3; c++)
        pixels[d + c] = ((from[s + c] ?? 0) * alpha + (pixels[d + c] ?? 0) * keep) / 255;
    }
  }
}

/**
 * The element's CSS size, followed as it changes. Read once when it mounts, before the browser paints: the
 * ResizeObserver's first report comes a frame later, and the preview would be drawn only then.
 */
function useSize(ref: React.RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const { width, height } = el.getBoundingClientRect();
    setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
  }, [ref]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const { width, height } = entry.contentRect;
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

export interface MapPreviewProps {
  points: readonly MapPoint[];
  testId: string;
  label: string;
  /** the points are still on their way (the preview is not "drawn" before they are) */
  pending?: boolean;
  /** called once the preview shows its loaded points on the base shapes (or without them, should they fail) */
  onDrawn?: () => void;
}

/** The canvas of the preview; data-drawn is set once it shows the loaded points. */
export function MapPreview({ points, testId, label, pending, onDrawn }: MapPreviewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const size = useSize(containerRef);
  const [base, setBase] = useState<PreviewShapes | null | 'failed'>(null);
  useEffect(() => {
    let live = true;
    previewShapes().then(
      (loaded) => live && setBase(loaded),
      () => live && setBase('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    const canvas = canvasRef.current;
    // Drawn once the base shapes are in (or failed): ten thousand points are not drawn twice.
    if (!canvas || size.width === 0 || size.height === 0 || base === null) return;
    draw(canvas, size.width, size.height, base === 'failed' ? null : base, points);
    if (!pending) setDrawn(true);
  }, [size, base, points, pending]);
  const onDrawnRef = useRef(onDrawn);
  onDrawnRef.current = onDrawn;
  useEffect(() => {
    if (drawn) onDrawnRef.current?.();
  }, [drawn]);
  return (
    <div
      ref={containerRef}
      className="absolute inset-0"
      data-testid={testId}
      data-points={points.length}
      data-drawn={drawn}
    >
      <canvas ref={canvasRef} role="img" aria-label={label} className="block h-full w-full" />
    </div>
  );
}
