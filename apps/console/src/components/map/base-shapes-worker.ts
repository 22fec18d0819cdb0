/// <reference lib="webworker" />
/**
 * The offline base layer's TopoJSON turned into GeoJSON off the main thread: world-atlas 1:50m makes some
 * 3 MB of GeoJSON, which took 50 to 250 ms of the main thread as the dashboard started. The GeoJSON goes back
 * as text in Blobs, which MapLibre fetches and parses in its own worker (by blob URL): the main thread never
 * holds the shapes as objects.
 */
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { BaseShapesReply, BaseShapesRequest } from './base-shapes-protocol';

async function fetchTopology(url: string): Promise<Topology> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`base map: ${response.status}`);
  return (await response.json()) as Topology;
}

const asBlob = (geojson: unknown) => new Blob([JSON.stringify(geojson)], { type: 'application/json' });

self.onmessage = async (event: MessageEvent<BaseShapesRequest>) => {
  let reply: BaseShapesReply;
  try {
    const [world, germany] = await Promise.all([
      fetchTopology(event.data.countriesUrl),
      fetchTopology(event.data.statesUrl),
    ]);
    const countries = world.objects.countries as GeometryCollection;
    const states = germany.objects.states as GeometryCollection;
    reply = {
      type: 'shapes',
      land: asBlob(feature(world, world.objects.land as GeometryCollection)),
      // Shared edges only: a coastline is where land meets the background, and Germany's outline is a
      // country border already.
      states: asBlob(mesh(germany, states, (a, b) => a !== b)),
      borders: asBlob(mesh(world, countries, (a, b) => a !== b)),
    };
  } catch (error) {
    reply = { type: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  (self as unknown as Worker).postMessage(reply);
};
