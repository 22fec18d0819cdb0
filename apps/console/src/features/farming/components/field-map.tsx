import { PolygonLayer } from '@deck.gl/layers';
import { MapLibreOverlay } from '@deck.gl/maplibre';
import * as maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useRef } from 'react';
import { draftLayers } from '../../../components/map/draft-layers';
import { DEFAULT_CENTER } from '../../../components/map/map-points';

/**
 * MapLibre with a deck.gl polygon layer of field boundaries (a lazy chunk, like the device map). With
 * `onMapClick` each click hands its coordinate to the caller: the boundary editor adds a vertex.
 */
export interface MapPolygon {
  id: number | string;
  rings: number[][][];
  color: [number, number, number];
  /** what the colour stands for (tests read it from window.__IOT_FIELD_POLYGONS__) */
  moistureClass?: string;
}

export interface FieldMapProps {
  polygons: MapPolygon[];
  /** vertices being drawn (not yet closed) */
  draft?: number[][];
  styleUrl?: string | null;
  onMapClick?: (lngLat: [number, number]) => void;
  onPolygonClick?: (id: number | string) => void;
  testId?: string;
}

const PLAIN_STYLE: maplibregl.StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#e8eef2' } }],
};

declare global {
  interface Window {
    __IOT_MAPS__?: Record<string, maplibregl.Map>;
    __IOT_FIELD_POLYGONS__?: Record<string, MapPolygon[]>;
  }
}

function layers(polygons: MapPolygon[], draft: number[][], onPolygonClick?: (id: number | string) => void) {
  return [
    new PolygonLayer<MapPolygon>({
      id: 'fields',
      data: polygons,
      getPolygon: (d) => d.rings,
      getFillColor: (d) => [...d.color, 110],
      getLineColor: (d) => [...d.color, 255],
      getLineWidth: 2,
      lineWidthUnits: 'pixels',
      pickable: !!onPolygonClick,
      onClick: (info) => {
        if (info.object && onPolygonClick) onPolygonClick(info.object.id);
      },
    }),
    ...draftLayers(draft, [234, 88, 12]),
  ];
}

function FieldMap({
  polygons,
  draft = [],
  styleUrl,
  onMapClick,
  onPolygonClick,
  testId = 'field-map',
}: FieldMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<maplibregl.Map | null>(null);
  const overlayRef = useRef<MapLibreOverlay | null>(null);
  const clickRef = useRef(onMapClick);
  clickRef.current = onMapClick;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is created once; polygons reach it through the overlay below.
  useEffect(() => {
    if (!containerRef.current) return;
    const first = polygons[0]?.rings[0]?.[0];
    const map = new maplibregl.Map({
      container: containerRef.current,
      style: styleUrl || PLAIN_STYLE,
      center: first ? [first[0]!, first[1]!] : [DEFAULT_CENTER.longitude, DEFAULT_CENTER.latitude],
      zoom: 14,
      attributionControl: false,
    });
    const overlay = new MapLibreOverlay({ layers: [] });
    map.addControl(overlay);
    map.on('click', (e) => clickRef.current?.([e.lngLat.lng, e.lngLat.lat]));
    mapRef.current = map;
    overlayRef.current = overlay;
    window.__IOT_MAPS__ = { ...window.__IOT_MAPS__, [testId]: map };
    return () => {
      if (window.__IOT_MAPS__) delete window.__IOT_MAPS__[testId];
      map.remove();
    };
  }, [styleUrl, testId]);

  useEffect(() => {
    overlayRef.current?.setProps({ layers: layers(polygons, draft, onPolygonClick) });
    window.__IOT_FIELD_POLYGONS__ = { ...window.__IOT_FIELD_POLYGONS__, [testId]: polygons };
  }, [polygons, draft, onPolygonClick, testId]);

  return <div ref={containerRef} className="h-full min-h-64 w-full" data-testid={testId} />;
}

export default FieldMap;
