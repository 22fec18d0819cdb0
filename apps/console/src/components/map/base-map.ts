import type { StyleSpecification } from 'maplibre-gl';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
// Natural Earth 1:50m land and countries (world-atlas), a static file of the build fetched with the map:
// the offline base layer, so a map shows where its devices are without any tile server.
import countriesUrl from 'world-atlas/countries-50m.json?url';
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

interface BaseShapes {
  land: GeoJSON.FeatureCollection | GeoJSON.Feature;
  states: GeoJSON.MultiLineString;
  borders: GeoJSON.MultiLineString;
}

function fetchTopology(url: string): Promise<Topology> {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`base map: ${response.status}`);
    return response.json() as Promise<Topology>;
  });
}

let shapes: Promise<BaseShapes> | null = null;

/** Land and borders, fetched and converted once per page however many maps show them. */
function baseShapes(): Promise<BaseShapes> {
  shapes ??= Promise.all([fetchTopology(countriesUrl), fetchTopology(statesUrl)])
    .then(([world, germany]) => {
      const countries = world.objects.countries as GeometryCollection;
      const land = world.objects.land as GeometryCollection;
      const states = germany.objects.states as GeometryCollection;
      return {
        land: feature(world, land),
        // Shared edges only: a coastline is where land meets the background, and Germany's outline is
        // a country border already.
        states: mesh(germany, states, (a, b) => a !== b),
        borders: mesh(world, countries, (a, b) => a !== b),
      };
    })
    .catch((error: unknown) => {
      shapes = null;
      throw error;
    });
  return shapes;
}

interface GeoJsonSourceLike {
  setData(data: GeoJSON.GeoJSON): unknown;
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
