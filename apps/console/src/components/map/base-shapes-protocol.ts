/** Messages of the base-shapes worker (base-shapes-worker.ts). */
export interface BaseShapesRequest {
  /** URLs of the world-atlas countries TopoJSON and of the German states TopoJSON */
  countriesUrl: string;
  statesUrl: string;
}

/** The base layers as GeoJSON text in Blobs (a Blob crosses threads without copying its bytes). */
export type BaseShapesReply =
  | { type: 'shapes'; land: Blob; states: Blob; borders: Blob }
  | { type: 'error'; message: string };
