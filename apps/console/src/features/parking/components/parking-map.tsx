import { PolygonLayer, ScatterplotLayer } from '@deck.gl/layers';
import { MapLibreOverlay } from '@deck.gl/maplibre';
import { CalendarClockIcon, CarIcon, ParkingSquareIcon, WarehouseIcon } from 'lucide-react';
import * as maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { draftLayers } from '../../../components/map/draft-layers';
import { DEFAULT_CENTER } from '../../../components/map/map-points';
import { formatNumber } from '../../../lib/format';
import { testHooks } from '../../../lib/test-hooks';
import type { ParkingArea } from '../types';
import { areaColor } from './free-slots';

/**
 * The car parks on a map (a lazy chunk, like the device map): each outline as a deck.gl polygon coloured
 * by its free share, a point where an area has only a position, and an HTML badge per car park with its
 * icon and "9 free of 345" (labelled, never a bare "9/345"). Badges are MapLibre markers: DOM, so they
 * need no glyphs or tiles and draw offline; without a style URL the map is a plain background.
 */
maplibregl.setWorkerUrl(workerUrl);

const PLAIN_STYLE: maplibregl.StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#e8eef2' } }],
};

export interface ParkingMapProps {
  areas: readonly ParkingArea[];
  styleUrl?: string | null;
  onAreaClick?: (id: number) => void;
  /** an outline being drawn (its vertices), and where a click on the map goes (the drawer's editor) */
  draft?: number[][];
  onMapClick?: (lngLat: [number, number]) => void;
  /** the centre when no area has a position */
  center?: [number, number] | null;
  testId?: string;
}

const NO_DRAFT: number[][] = [];

interface Outline {
  id: number;
  rings: number[][][];
  color: [number, number, number];
}

/** The polygons of an area's GeoJSON outline (Polygon or MultiPolygon); none for anything else. */
function outlinesOf(area: ParkingArea): number[][][][] {
  const g = area.geometry as { type?: string; coordinates?: unknown } | null;
  if (!g || !Array.isArray(g.coordinates)) return [];
  if (g.type === 'Polygon') return [g.coordinates as number[][][]];
  if (g.type === 'MultiPolygon') return g.coordinates as number[][][][];
  return [];
}

/** Where the badge sits: the area's position, else the middle of its outline's vertices. */
function badgePosition(area: ParkingArea): [number, number] | null {
  if (area.latitude !== null && area.longitude !== null) return [area.longitude, area.latitude];
  const ring = outlinesOf(area)[0]?.[0];
  if (!ring || ring.length === 0) return null;
  const lng = ring.reduce((s, p) => s + (p[0] ?? 0), 0) / ring.length;
  const lat = ring.reduce((s, p) => s + (p[1] ?? 0), 0) / ring.length;
  return [lng, lat];
}

const ICONS = { PS: ParkingSquareIcon, TP: CalendarClockIcon, PU: CarIcon, PG: WarehouseIcon } as const;

function Badge({ area, onClick }: { area: ParkingArea; onClick?: (id: number) => void }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  const Icon = ICONS[area.icon];
  const [r, g, b] = areaColor(area);
  const label =
    area.free_slots === null
      ? t('parking.map-badge-unknown', { capacity: n(area.capacity) })
      : t('parking.map-badge', { free: n(area.free_slots), capacity: n(area.capacity) });
  return (
    <button
      type="button"
      className="flex items-center gap-1 whitespace-nowrap rounded-full border-2 bg-background px-2 py-0.5 text-xs font-medium shadow"
      style={{ borderColor: `rgb(${r} ${g} ${b})` }}
      title={`${area.name}: ${t(`parking.icon.${area.icon}`)}`}
      aria-label={`${area.name}: ${label}`}
      data-testid={`parking-map-badge-${area.id}`}
      data-free={area.free_slots ?? ''}
      onClick={() => onClick?.(area.id)}
    >
      <Icon className="size-3.5" aria-hidden />
      {label}
    </button>
  );
}

function ParkingMap({
  areas,
  styleUrl,
  onAreaClick,
  draft = NO_DRAFT,
  onMapClick,
  center,
  testId = 'parking-map',
}: ParkingMapProps) {
  const clickRef = useRef(onMapClick);
  clickRef.current = onMapClick;
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<maplibregl.Map | null>(null);
  const overlayRef = useRef<MapLibreOverlay | null>(null);
  const markersRef = useRef(new Map<number, maplibregl.Marker>());
  const [elements, setElements] = useState<ReadonlyMap<number, HTMLElement>>(new Map());
  const positions = useMemo(
    () => areas.flatMap((a) => (badgePosition(a) ? [{ id: a.id, at: badgePosition(a)! }] : [])),
    [areas],
  );
  const positionsKey = positions.map((p) => `${p.id}:${p.at.join(',')}`).join(';');

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is created once per style; areas reach it through the effects below.
  useEffect(() => {
    if (!containerRef.current) return;
    const first = positions[0]?.at ?? center ?? (draft[0] as [number, number] | undefined);
    const map = new maplibregl.Map({
      container: containerRef.current,
      style: styleUrl || PLAIN_STYLE,
      center: first ?? [DEFAULT_CENTER.longitude, DEFAULT_CENTER.latitude],
      zoom: first ? 17 : 15,
      attributionControl: false,
    });
    const overlay = new MapLibreOverlay({ layers: [] });
    map.addControl(overlay);
    map.on('click', (e) => clickRef.current?.([e.lngLat.lng, e.lngLat.lat]));
    if (positions.length > 1) {
      const bounds = new maplibregl.LngLatBounds();
      for (const p of positions) bounds.extend(p.at);
      map.fitBounds(bounds, { padding: 60, maxZoom: 17, duration: 0 });
    }
    mapRef.current = map;
    overlayRef.current = overlay;
    if (testHooks().maps) window.__IOT_MAPS__ = { ...window.__IOT_MAPS__, [testId]: map };
    const markers = markersRef.current;
    return () => {
      if (window.__IOT_MAPS__) delete window.__IOT_MAPS__[testId];
      for (const marker of markers.values()) marker.remove();
      markers.clear();
      setElements(new Map());
      map.remove();
    };
  }, [styleUrl, testId]);

  // One marker per car park with a position; its badge is rendered into the marker's element below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: positionsKey stands for positions.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const markers = markersRef.current;
    const wanted = new Set(positions.map((p) => p.id));
    for (const [id, marker] of markers)
      if (!wanted.has(id)) {
        marker.remove();
        markers.delete(id);
      }
    for (const p of positions) {
      const marker = markers.get(p.id);
      if (marker) marker.setLngLat(p.at);
      else
        markers.set(
          p.id,
          new maplibregl.Marker({ element: document.createElement('div'), anchor: 'bottom', offset: [0, -6] })
            .setLngLat(p.at)
            .addTo(map),
        );
    }
    setElements(new Map([...markers].map(([id, m]) => [id, m.getElement()])));
  }, [positionsKey, styleUrl]);

  useEffect(() => {
    const outlines: Outline[] = areas.flatMap((a) =>
      outlinesOf(a).map((rings) => ({ id: a.id, rings, color: areaColor(a) })),
    );
    const points = areas.filter((a) => outlinesOf(a).length === 0 && badgePosition(a) !== null);
    overlayRef.current?.setProps({
      layers: [
        new PolygonLayer<Outline>({
          id: 'car-parks',
          data: outlines,
          getPolygon: (d) => d.rings,
          getFillColor: (d) => [...d.color, 90],
          getLineColor: (d) => [...d.color, 255],
          getLineWidth: 2,
          lineWidthUnits: 'pixels',
          pickable: !!onAreaClick,
          onClick: (info) => {
            if (info.object) onAreaClick?.(info.object.id);
          },
        }),
        new ScatterplotLayer<ParkingArea>({
          id: 'car-park-points',
          data: points,
          getPosition: (a) => badgePosition(a)!,
          getRadius: 6,
          radiusUnits: 'pixels',
          getFillColor: (a) => [...areaColor(a), 230],
          getLineColor: [255, 255, 255],
          getLineWidth: 2,
          lineWidthUnits: 'pixels',
          stroked: true,
        }),
        ...draftLayers(draft, [37, 99, 235]),
      ],
    });
  }, [areas, onAreaClick, draft]);

  const byId = new Map(areas.map((a) => [a.id, a]));
  return (
    <>
      <div ref={containerRef} className="h-full min-h-64 w-full" data-testid={testId} />
      {[...elements].map(([id, element]) => {
        const area = byId.get(id);
        return area ? createPortal(<Badge area={area} onClick={onAreaClick} />, element, String(id)) : null;
      })}
    </>
  );
}

export default ParkingMap;
