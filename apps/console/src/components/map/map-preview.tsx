import { geoMercator, geoPath } from 'd3-geo';
import { useEffect, useRef, useState } from 'react';
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

interface PreviewShapes {
  land: GeoJSON.Feature | GeoJSON.FeatureCollection;
  borders: GeoJSON.MultiLineString;
  states: GeoJSON.MultiLineString;
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
      land: feature(world, world.objects.land as GeometryCollection),
      borders: mesh(world, world.objects.countries as GeometryCollection, (a, b) => a !== b),
      states: mesh(germany, germany.objects.states as GeometryCollection, (a, b) => a !== b),
    }))
    .catch((error: unknown) => {
      shapes = null;
      throw error;
    });
  return shapes;
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
  const ctx = canvas.getContext('2d');
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
    ]);
  const path = geoPath(projection, ctx);
  if (base) {
    ctx.beginPath();
    path(base.land);
    ctx.fillStyle = LAND;
    ctx.fill();
    ctx.lineWidth = 0.7;
    ctx.setLineDash([3, 2]);
    ctx.beginPath();
    path(base.states);
    ctx.strokeStyle = STATE_BORDER;
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.lineWidth = 0.8;
    ctx.beginPath();
    path(base.borders);
    ctx.strokeStyle = BORDER;
    ctx.stroke();
  }
  drawPoints(ctx, points, (p) => projection([p.longitude, p.latitude]));
}

/** The points, one path per colour (10,000 devices are a few paths, not 10,000 fills). */
function drawPoints(
  ctx: CanvasRenderingContext2D,
  points: readonly MapPoint[],
  project: (p: MapPoint) => [number, number] | null,
) {
  const byColor = new Map<string, MapPoint[]>();
  for (const p of points) {
    const key = `rgb(${p.color.join(',')})`;
    const list = byColor.get(key);
    if (list) list.push(p);
    else byColor.set(key, [p]);
  }
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 1;
  for (const [color, list] of byColor) {
    ctx.beginPath();
    for (const p of list) {
      const xy = project(p);
      if (!xy) continue;
      ctx.moveTo(xy[0] + POINT_RADIUS, xy[1]);
      ctx.arc(xy[0], xy[1], POINT_RADIUS, 0, 2 * Math.PI);
    }
    ctx.fillStyle = color;
    ctx.fill();
    ctx.stroke();
  }
}

/** The element's CSS size, followed as it changes (0 × 0 until it is laid out). */
function useSize(ref: React.RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
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
    if (!canvas || size.width === 0 || size.height === 0) return;
    draw(canvas, size.width, size.height, base === 'failed' ? null : base, points);
    if (!pending && base !== null) setDrawn(true);
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
