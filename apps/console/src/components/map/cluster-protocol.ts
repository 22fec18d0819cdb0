/** Messages between the map (cluster-client.ts) and its clustering worker (cluster-worker.ts). */
export type ClusterRequest =
  | { type: 'load'; seq: number; longitude: Float64Array; latitude: Float64Array }
  | { type: 'clusters'; seq: number; bbox: [number, number, number, number]; zoom: number }
  | { type: 'expansion'; seq: number; clusterId: number };

export type ClusterReply =
  | { type: 'loaded'; seq: number }
  /** encoded by encodeClusters (map-points.ts) */
  | { type: 'clusters'; seq: number; items: Float64Array }
  | { type: 'expansion'; seq: number; zoom: number };
