import type { StyleSpecification } from 'maplibre-gl';
// Natural Earth 1:50m land and countries (world-atlas), a static file of the build fetched with the map:
// the offline base layer, so a map shows where its devices are without any tile server.
import countriesUrl from 'world-atlas/countries-50m.json?url';
import type { BaseShapesReply, BaseShapesRequest } from './base-shapes-protocol';
// Natural Earth 1:10m admin-1, the 16 German states simplified (public domain; scripts/german-states.ts).
import statesUrl from './germany-states.json?url';

/** Ids of the offline base layers (tests ask MapLibre for what these draw). */
const BASE_LAYERS = { land: 'base-land', states: 'base-states', borders: 'base-borders' } as const;
const LAND_SOURCE = 'base-land';
const STATE_SOURCE = 'base-states';
const BORDER_SOURCE = 'base-borders';

const WATER = '#cddfea';
const LAND = '#f4f2ec';
const BORDER = '#8f9aa6';
const STATE_BORDER = '#a7b0ba';

const EMPTY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

/**
 * The map's style without MAP_STYLE_URL: water as the background, land, German state borders (fainter) and
 * country borders above it, all from the bundle. Its sources start empty and are filled by `loadBaseLayers` (the devices are drawn on
 * top meanwhile).
 */
export const BASE_STYLE: StyleSpecification = {
  version: 8,
  sources: {
    [LAND_SOURCE]: { type: 'geojson', data: EMPTY },
    [STATE_SOURCE]: { type: 'geojson', data: EMPTY },
    [BORDER_SOURCE]: { type: 'geojson', data: EMPTY },
  },
  layers: [
    { id: 'background', type: 'background', paint: { 'background-color': WATER } },
    { id: BASE_LAYERS.land, type: 'fill', source: LAND_SOURCE, paint: { 'fill-color': LAND } },
    {
      id: BASE_LAYERS.states,
      type: 'line',
      source: STATE_SOURCE,
      paint: { 'line-color': STATE_BORDER, 'line-width': 0.7, 'line-dasharray': [3, 2] },
    },
    {
      id: BASE_LAYERS.borders,
      type: 'line',
      source: BORDER_SOURCE,
      paint: { 'line-color': BORDER, 'line-width': 0.8 },
    },
  ],
};

/** Blob URLs of the base layers' GeoJSON, made once per page however many maps show them. */
interface BaseShapeUrls {
  land: string;
  states: string;
  borders: string;
}

let shapes: Promise<BaseShapeUrls> | null = null;

/** Land and borders, converted in a worker (base-shapes-worker.ts) and kept as blob URLs for the page. */
function baseShapes(): Promise<BaseShapeUrls> {
  shapes ??= new Promise<BaseShapeUrls>((resolve, reject) => {
    const worker = new Worker(new URL('./base-shapes-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<BaseShapesReply>) => {
      worker.terminate();
      const reply = event.data;
      if (reply.type === 'error') return reject(new Error(reply.message));
      resolve({
        land: URL.createObjectURL(reply.land),
        states: URL.createObjectURL(reply.states),
        borders: URL.createObjectURL(reply.borders),
      });
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`base map worker: ${event.message}`));
    };
    worker.postMessage({ countriesUrl, statesUrl } satisfies BaseShapesRequest);
  }).catch((error: unknown) => {
    shapes = null;
    throw error;
  });
  return shapes;
}

interface GeoJsonSourceLike {
  setData(data: GeoJSON.GeoJSON | string): unknown;
}
interface StyledMap {
  getSource(id: string): unknown;
}

/** Fills the base layers of a map on BASE_STYLE; resolves true once they hold their shapes. */
export async function loadBaseLayers(map: StyledMap): Promise<boolean> {
  const { land, states, borders } = await baseShapes();
  const sources = [LAND_SOURCE, STATE_SOURCE, BORDER_SOURCE].map(
    (id) => map.getSource(id) as GeoJsonSourceLike | undefined,
  );
  const [landSource, stateSource, borderSource] = sources;
  if (!landSource || !stateSource || !borderSource) return false;
  landSource.setData(land);
  stateSource.setData(states);
  borderSource.setData(borders);
  return true;
}
