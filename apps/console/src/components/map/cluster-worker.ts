/// <reference lib="webworker" />
/**
 * The map's clustering off the main thread: supercluster's index of 10,000 devices takes tens of
 * milliseconds to build (more while the page is starting), which the main thread spends on drawing instead.
 * Messages: see cluster-protocol.ts.
 */
import type Supercluster from 'supercluster';
import type { ClusterReply, ClusterRequest } from './cluster-protocol';
import { buildClusterIndexFromCoords, encodeClusters } from './map-points';

let index: Supercluster<{ index: number }> | null = null;

self.onmessage = (event: MessageEvent<ClusterRequest>) => {
  const request = event.data;
  let reply: ClusterReply;
  if (request.type === 'load') {
    index = buildClusterIndexFromCoords(request.longitude, request.latitude);
    reply = { type: 'loaded', seq: request.seq };
  } else if (request.type === 'clusters') {
    const items = index ? encodeClusters(index, request.bbox, request.zoom) : new Float64Array(0);
    reply = { type: 'clusters', seq: request.seq, items };
    (self as unknown as Worker).postMessage(reply, [items.buffer]);
    return;
  } else {
    const zoom = index ? index.getClusterExpansionZoom(request.clusterId) : 0;
    reply = { type: 'expansion', seq: request.seq, zoom };
  }
  (self as unknown as Worker).postMessage(reply);
};
