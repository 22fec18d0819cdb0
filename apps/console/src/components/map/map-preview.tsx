import { geoMercator, geoPath } from 'd3-geo';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
// Natural Earth 1:110m (world-atlas): a preview needs no more, and converting it takes a few milliseconds.
import countriesUrl from 'world-atlas/countries-110m.json?url';
import { canvasWords, type DotStamp, dotPixels, dotStamp, stampDot } from './dot-stamps';
import statesUrl from './germany-states.json?url';
import type { MapPoint } from './map-points';
import { mercatorPointOf } from './preview-projection';

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
  const point = mercatorPointOf(projection);
  drawPoints(ctx, points, (p) => point(p.longitude, p.latitude));
}

/**
 * The points, stamped from one sprite per colour into the canvas's pixels (dot-stamps.ts): 10,000
 * drawImage calls took about 100 ms of the main thread in headless Chromium. Dots land on whole device
 * pixels, which a still picture does not show. The canvas is opaque (the water is filled first), so
 * stamping a sprite over it keeps it opaque.
 */
function drawPoints(
  ctx: CanvasRenderingContext2D,
  points: readonly MapPoint[],
  project: (p: MapPoint) => [number, number],
) {
  const ratio = window.devicePixelRatio || 1;
  const { width, height } = ctx.canvas;
  const image = ctx.getImageData(0, 0, width, height);
  const words = canvasWords(image);
  // Keyed by the colour as a number: no string per point (points of a state share one colour anyway).
  const stamps = new Map<number, DotStamp>();
  for (const p of points) {
    const [x, y] = project(p);
    const [r = 0, g = 0, b = 0] = p.color;
    const key = (r << 16) | (g << 8) | b;
    let stamp = stamps.get(key);
    if (!stamp) {
      stamp = dotStamp(dotPixels([r, g, b], POINT_RADIUS, ratio), width);
      stamps.set(key, stamp);
    }
    const left = Math.round(x * ratio) - (stamp.sprite.width >> 1);
    const top = Math.round(y * ratio) - (stamp.sprite.height >> 1);
    stampDot(image, words, stamp, left, top);
  }
  ctx.putImageData(image, 0, 0);
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
