import { ScatterplotLayer } from '@deck.gl/layers';
import { MapLibreOverlay } from '@deck.gl/maplibre';
import * as maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { localeTag } from '../../lib/format';
import { testHooks } from '../../lib/test-hooks';
import { BASE_STYLE, loadBaseLayers } from './base-map';
import { ClusterClient } from './cluster-client';
import { ClusterCountsCanvas } from './cluster-counts';
import {
  CLUSTER_MAX_ZOOM,
  CLUSTER_OUTLINE,
  clusterRadius,
  DEFAULT_CENTER,
  DEFAULT_ZOOM,
  decodeClusters,
  itemAt,
  type MapItem,
  type MapPoint,
  POINT_OUTLINE,
  POINT_RADIUS,
} from './map-points';

/**
 * MapLibre with a deck.gl layer of devices (this module is a lazy chunk: the first screen never loads
 * MapLibre or deck.gl). Zoomed out, supercluster folds the devices into clusters so 10k devices pan as
 * smoothly as an empty map; it runs in a worker (cluster-worker.ts), so building the index of 10,000
 * devices does not hold the main thread. A click on a cluster zooms in, a click on a device calls
 * onPointClick.
 * Without a style URL (or when it cannot be loaded) the devices are drawn on the bundled base layer
 * (base-map.ts: Natural Earth land and borders).
 */
maplibregl.setWorkerUrl(workerUrl);

// MapLibre sets its canvas size a second time, unchanged, once its WebGL context exists (Map constructor ->
// resize). Setting a WebGL canvas's size reallocates its drawing buffer even when nothing changes; under
// software WebGL that is a wait on the GPU process. An unchanged size is left alone (the CSS size is still set).
const mapInternals = maplibregl.Map.prototype as unknown as {
  _resizeCanvas(this: { _canvas: HTMLCanvasElement }, width: number, height: number, ratio: number): void;
};
const resizeCanvas = mapInternals._resizeCanvas;
// A private method: should a MapLibre upgrade rename it, the map simply resizes as MapLibre does.
if (typeof resizeCanvas === 'function') {
  mapInternals._resizeCanvas = function (width, height, ratio) {
    const canvas = this._canvas;
    if (canvas.width !== Math.round(ratio * width) || canvas.height !== Math.round(ratio * height)) {
      resizeCanvas.call(this, width, height, ratio);
      return;
    }
    canvas.style.width = `${canvas.width / ratio}px`;
    canvas.style.height = `${canvas.height / ratio}px`;
  };
}

export interface DeviceMapProps {
  points: readonly MapPoint[];
  styleUrl?: string | null;
  onPointClick?: (id: number) => void;
  testId?: string;
  /** the points are still on their way (the map is not "drawn" before they are) */
  pending?: boolean;
  /**
   * Called once, when the map is first idle with its loaded points drawn (test builds also set
   * data-ready then). The dashboard holds the start-up device list until then.
   */
  onDrawn?: () => void;
  /** the map takes the keyboard focus when it starts (it was started from the keyboard) */
  focusOnStart?: boolean;
}

declare global {
  interface Window {
    /** test builds only: the maps on the page, to project a coordinate to a pixel */
    __IOT_MAPS__?: Record<string, maplibregl.Map>;
  }
}

const CLUSTER_COLOR: [number, number, number] = [13, 148, 136];

/**
 * The deck.gl layers of the map; a layer without data is left out (see DeviceMap's `used`). Not pickable:
 * clicks and the cursor are decided from the drawn items (`itemAt`), see DeviceMap.
 */
function layersFor(items: MapItem[], used: Set<string>) {
  const points = items.filter((i) => i.kind === 'point');
  const clusters = items.filter((i) => i.kind === 'cluster');
  if (clusters.length > 0) used.add('clusters');
  if (points.length > 0) used.add('devices');
  const layers = [];
  if (used.has('clusters'))
    layers.push(
      new ScatterplotLayer<MapItem>({
        id: 'clusters',
        data: clusters,
        getPosition: (d) => d.position,
        getRadius: (d) => (d.kind === 'cluster' ? clusterRadius(d.count) : POINT_RADIUS),
        radiusUnits: 'pixels',
        getFillColor: [...CLUSTER_COLOR, 200],
        getLineColor: [255, 255, 255],
        lineWidthUnits: 'pixels',
        getLineWidth: CLUSTER_OUTLINE,
        stroked: true,
      }),
      // The counts are not a deck.gl TextLayer: see cluster-counts.ts.
    );
  if (used.has('devices'))
    layers.push(
      new ScatterplotLayer<MapItem>({
        id: 'devices',
        data: points,
        getPosition: (d) => d.position,
        getRadius: POINT_RADIUS,
        radiusUnits: 'pixels',
        getFillColor: (d) => (d.kind === 'point' ? [...d.point.color, 230] : [0, 0, 0, 0]),
        getLineColor: [255, 255, 255],
        lineWidthUnits: 'pixels',
        getLineWidth: POINT_OUTLINE,
        stroked: true,
      }),
    );
  return layers;
}

/** Counts per interface language, as the console's other numbers (lib/format.ts). */
function countFormat(lang: string): (count: number) => string {
  const numbers = new Intl.NumberFormat(localeTag(lang));
  return (count) => numbers.format(count);
}

export function DeviceMap({
  points,
  styleUrl,
  onPointClick,
  testId = 'device-map',
  pending = false,
  onDrawn,
  focusOnStart = false,
}: DeviceMapProps) {
  const { i18n } = useTranslation();
  // Read once, at the map's start: a later change does not move the focus.
  const focusOnStartRef = useRef(focusOnStart);
  const lang = i18n.language;
  const langRef = useRef(lang);
  langRef.current = lang;
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<maplibregl.Map | null>(null);
  const overlayRef = useRef<MapLibreOverlay | null>(null);
  const countsRef = useRef<ClusterCountsCanvas | null>(null);
  const clickRef = useRef(onPointClick);
  clickRef.current = onPointClick;
  const clusterRef = useRef<ClusterClient | null>(null);
  const pointsRef = useRef(points);
  pointsRef.current = points;
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const onDrawnRef = useRef(onDrawn);
  onDrawnRef.current = onDrawn;
  /** the map has been idle with its loaded points drawn (onDrawn told) */
  const drawnRef = useRef(false);
  /**
   * Layers that have had data: only these are given to deck.gl. A layer set up compiles its shaders, which a
   * map without devices never needs; once used, a layer stays, so pans do not set it up again. A map created
   * while its devices are still on their way sets every layer up at once (with no data), so that work is
   * done while the server answers, not after. A layer without data is not drawn (luma.gl skips a draw of 0
   * instances), so SwiftShader builds the pipelines in the frame that first draws devices (0.6 to 2.5 s of
   * readback at load 3 to 14, traces of 2026-11-21). Invisible stand-ins drawn before were measured and not
   * kept: deck.gl's first frame with layers came after the clustering worker's first answer in every trace,
   * so stand-ins and devices fell into the same frame.
   */
  const usedLayers = useRef(new Set<string>(pending ? ['clusters', 'devices'] : []));
  /** the items last given to deck.gl, as drawn: what a click or the cursor hits */
  const itemsRef = useRef<readonly MapItem[]>([]);
  /** the points the worker's index was built from */
  const loadedRef = useRef<readonly MapPoint[] | null>(null);
  const redrawRef = useRef<() => void>(() => undefined);
  /** the latest redraw: older answers of the worker are dropped */
  const redrawSeq = useRef(0);

  // The viewport box (padded by half a screen) and the zoom decide what is drawn; recomputed when a
  // pan or zoom ends, so frames during the gesture only move what is already on the GPU.
  redrawRef.current = () => {
    const map = mapRef.current;
    const overlay = overlayRef.current;
    const clusters = clusterRef.current;
    const counts = countsRef.current;
    if (!map || !overlay || !clusters || !counts) return;
    const b = map.getBounds();
    const padLng = (b.getEast() - b.getWest()) / 2;
    const padLat = (b.getNorth() - b.getSouth()) / 2;
    const zoom = map.getZoom();
    const bbox: [number, number, number, number] =
      zoom < 6
        ? [-180, -85, 180, 85]
        : [
            Math.max(-180, b.getWest() - padLng),
            Math.max(-85, b.getSouth() - padLat),
            Math.min(180, b.getEast() + padLng),
            Math.min(85, b.getNorth() + padLat),
          ];
    const seq = ++redrawSeq.current;
    // The worker answers from the index of the points loaded last, before this question.
    const drawn = loadedRef.current ?? [];
    void clusters.clusters(bbox, zoom).then((encoded) => {
      if (seq !== redrawSeq.current || mapRef.current !== map) return;
      const items = decodeClusters(encoded, drawn);
      // The counts canvas draws these at MapLibre's next render, the one in which deck.gl draws the layers.
      counts.setItems(items);
      itemsRef.current = items;
      overlay.setProps({ layers: layersFor(items, usedLayers.current) });
      // Test builds count the layer updates (data-layer-updates), so a test can wait for the layers of the view
      // it moved to before it clicks: the map's 'idle' may come before the worker's answer for that view;
      const el = containerRef.current;
      if (el && testHooks().maps) {
        el.dataset.layerUpdates = String(Number(el.dataset.layerUpdates ?? 0) + 1);
        // and where the largest cluster is ("lng,lat"), for a test that clicks one
        let largest: MapItem | null = null;
        for (const item of items)
          if (item.kind === 'cluster' && (largest?.kind !== 'cluster' || item.count > largest.count))
            largest = item;
        el.dataset.largestCluster = largest ? largest.position.join(',') : '';
      }
      // "Drawn" once the map is idle with the layers of its current, loaded points drawn (test builds:
      // data-ready).
      if (!drawnRef.current) {
        map.once('idle', () => {
          if (drawnRef.current || pendingRef.current || drawn !== pointsRef.current) return;
          drawnRef.current = true;
          const el = containerRef.current;
          if (el && testHooks().maps) el.dataset.ready = 'true';
          onDrawnRef.current?.();
        });
        map.triggerRepaint();
      }
    });
  };

  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const map = new maplibregl.Map({
      container: el,
      style: styleUrl || BASE_STYLE,
      center: [DEFAULT_CENTER.longitude, DEFAULT_CENTER.latitude],
      zoom: DEFAULT_ZOOM,
      attributionControl: false,
    });
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    // Started from the keyboard, the focus moves from the button that is gone to the map (arrow keys pan it),
    // rather than to the page's start.
    if (focusOnStartRef.current) map.getCanvas().focus({ preventScroll: true });
    // The bundled base layer fills in once its shapes are fetched (data-base tells tests it is there).
    const fillBase = () => {
      void loadBaseLayers(map)
        .then((filled) => {
          if (filled && mapRef.current === map) el.dataset.base = 'true';
        })
        .catch(() => undefined);
    };
    if (!styleUrl) map.once('load', fillBase);
    // A style that cannot be loaded (offline, bad URL) falls back to the bundled base layer.
    let fellBack = !styleUrl;
    map.on('error', () => {
      if (!fellBack && !map.isStyleLoaded()) {
        fellBack = true;
        map.setStyle(BASE_STYLE);
        map.once('style.load', fillBase);
      }
    });
    // deck.gl draws into MapLibre's WebGL context (one context fewer to create, about 0.3 s in SwiftShader).
    // @deck.gl/maplibre, not @deck.gl/mapbox: the latter reads map.transform, which MapLibre 6 removed, so
    // every deck frame threw there (nothing drawn, nothing to click).
    // No `onLoad` here: MapLibreOverlay.setProps hands its own props to deck.gl again, and a user onLoad there
    // replaced the one @deck.gl/maplibre wraps around it to start following the map's moves, whenever the
    // first layers came before deck.gl's device: picking then used the first view and clicks missed.
    /** the pointer is over a device or a cluster (set by the hover below) */
    let hovering = false;
    const overlay = new MapLibreOverlay({
      interleaved: true,
      layers: [],
      // deck.gl sets the canvas's cursor at each of its frames: the same as the hover below decides.
      getCursor: () => (hovering ? 'pointer' : 'grab'),
    });
    map.addControl(overlay);
    const counts = new ClusterCountsCanvas({
      canvas: map.getCanvas(),
      container: map.getCanvasContainer(),
      project: (position) => map.project(position),
    });
    counts.setFormat(countFormat(langRef.current));
    // 'render' comes after MapLibre (and deck.gl's layers in it) drew the frame, in the same task.
    map.on('render', () => counts.draw());
    mapRef.current = map;
    overlayRef.current = overlay;
    countsRef.current = counts;
    const clusters = new ClusterClient();
    clusters.load(pointsRef.current);
    loadedRef.current = pointsRef.current;
    clusterRef.current = clusters;
    // Clicks and the cursor come from the items as drawn (itemAt), not from deck.gl's GPU picking: its picking
    // pipeline links asynchronously, and a click before it had linked found nothing, so the first click or tap
    // on a device did nothing (reliably so on a busy machine); picking on every pointer move also cost a GPU
    // read-back per frame, dear under software WebGL.
    const hitAt = (point: { x: number; y: number }) =>
      itemAt(itemsRef.current, (position) => map.project(position), point.x, point.y);
    map.on('click', (event) => {
      const item = hitAt(event.point);
      if (item?.kind === 'point') clickRef.current?.(item.point.id);
      else if (item?.kind === 'cluster') {
        void clusters.expansionZoom(item.clusterId).then((expansion) => {
          if (mapRef.current !== map) return;
          map.easeTo({ center: item.position, zoom: Math.min(expansion, CLUSTER_MAX_ZOOM) });
        });
      }
    });
    let hoverAt: { x: number; y: number } | null = null;
    let hoverFrame = 0;
    const setHovering = (next: boolean) => {
      if (next === hovering) return;
      hovering = next;
      map.getCanvas().style.cursor = next ? 'pointer' : 'grab';
    };
    // One hit test per animation frame at most, and none while a button is down (a pan).
    map.on('mousemove', (event) => {
      if (event.originalEvent.buttons !== 0) return;
      hoverAt = event.point;
      if (hoverFrame) return;
      hoverFrame = requestAnimationFrame(() => {
        hoverFrame = 0;
        if (hoverAt) setHovering(hitAt(hoverAt) !== null);
      });
    });
    map.on('mouseout', () => {
      hoverAt = null;
      setHovering(false);
    });
    map.on('dragstart', () => setHovering(false));
    const redraw = () => redrawRef.current();
    map.on('load', redraw);
    map.on('moveend', redraw);
    // A new map (another style) is drawn anew.
    drawnRef.current = false;
    if (testHooks().maps) {
      window.__IOT_MAPS__ = { ...window.__IOT_MAPS__, [testId]: map };
      el.dataset.ready = 'false';
    }
    return () => {
      cancelAnimationFrame(hoverFrame);
      if (window.__IOT_MAPS__) delete window.__IOT_MAPS__[testId];
      map.removeControl(overlay);
      overlay.finalize();
      counts.remove();
      map.remove();
      clusters.terminate();
      mapRef.current = null;
      overlayRef.current = null;
      countsRef.current = null;
      clusterRef.current = null;
    };
  }, [styleUrl, testId]);

  useEffect(() => {
    countsRef.current?.setFormat(countFormat(lang));
    mapRef.current?.triggerRepaint();
  }, [lang]);

  // New devices: a new index in the worker, drawn at once, not at the next pan (and once they stop being
  // pending, for the test builds' "ready").
  useEffect(() => {
    const clusters = clusterRef.current;
    if (clusters && loadedRef.current !== points) {
      clusters.load(points);
      loadedRef.current = points;
    }
    if (!pending) redrawRef.current();
  }, [points, pending]);

  return (
    <div
      ref={containerRef}
      className="relative h-full min-h-48 w-full overflow-hidden rounded-md"
      data-testid={testId}
      data-points={points.length}
    />
  );
}
