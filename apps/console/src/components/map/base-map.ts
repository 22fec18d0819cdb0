import type { StyleSpecification } from 'maplibre-gl';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
// Natural Earth 1:50m land and countries (world-atlas), a static file of the build fetched with the map:
// the offline base layer, so a map shows where its devices are without any tile server.
import countriesUrl from 'world-atlas/countries-50m.json?url';

/** Ids of the offline base layers (tests ask MapLibre for what these draw). */
const BASE_LAYERS = { land: 'base-land', borders: 'base-borders' } as const;
const LAND_SOURCE = 'base-land';
const BORDER_SOURCE = 'base-borders';

const WATER = '#cddfea';
const LAND = '#f4f2ec';
const BORDER = '#8f9aa6';

const EMPTY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

/**
 * The map's style without MAP_STYLE_URL: water as the background, land and country borders above it, all
 * from the bundle. Its sources start empty and are filled by `loadBaseLayers` (the devices are drawn on
 * top meanwhile).
 */
export const BASE_STYLE: StyleSpecification = {
  version: 8,
  sources: {
    [LAND_SOURCE]: { type: 'geojson', data: EMPTY },
    [BORDER_SOURCE]: { type: 'geojson', data: EMPTY },
  },
  layers: [
    { id: 'background', type: 'background', paint: { 'background-color': WATER } },
    { id: BASE_LAYERS.land, type: 'fill', source: LAND_SOURCE, paint: { 'fill-color': LAND } },
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
  borders: GeoJSON.MultiLineString;
}

let shapes: Promise<BaseShapes> | null = null;

/** Land and borders, fetched and converted once per page however many maps show them. */
function baseShapes(): Promise<BaseShapes> {
  shapes ??= fetch(countriesUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`base map: ${response.status}`);
      return response.json() as Promise<Topology>;
    })
    .then((topology) => {
      const countries = topology.objects.countries as GeometryCollection;
      const land = topology.objects.land as GeometryCollection;
      return {
        land: feature(topology, land),
        // Shared edges only: a coastline is where land meets the background.
        borders: mesh(topology, countries, (a, b) => a !== b),
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
  const { land, borders } = await baseShapes();
  const landSource = map.getSource(LAND_SOURCE) as GeoJsonSourceLike | undefined;
  const borderSource = map.getSource(BORDER_SOURCE) as GeoJsonSourceLike | undefined;
  if (!landSource || !borderSource) return false;
  landSource.setData(land);
  borderSource.setData(borders);
  return true;
}
