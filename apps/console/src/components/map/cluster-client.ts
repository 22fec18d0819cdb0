import type { ClusterReply, ClusterRequest } from './cluster-protocol';
import type { MapPoint } from './map-points';

type Request = ClusterRequest extends infer R ? (R extends { seq: number } ? Omit<R, 'seq'> : never) : never;

/** The map's side of the clustering worker (cluster-worker.ts); the worker answers in order. */
export class ClusterClient {
  private readonly worker = new Worker(new URL('./cluster-worker.ts', import.meta.url), { type: 'module' });
  private seq = 0;
  private readonly pending = new Map<number, (reply: ClusterReply) => void>();

  constructor() {
    this.worker.onmessage = (event: MessageEvent<ClusterReply>) => {
      const reply = event.data;
      this.pending.get(reply.seq)?.(reply);
      this.pending.delete(reply.seq);
    };
  }

  private ask(request: Request, transfer: Transferable[] = []): Promise<ClusterReply> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.pending.set(seq, resolve);
      this.worker.postMessage({ ...request, seq }, transfer);
    });
  }

  /** A new index over these points; later questions see it. */
  load(points: readonly MapPoint[]): void {
    const longitude = new Float64Array(points.length);
    const latitude = new Float64Array(points.length);
    points.forEach((p, i) => {
      longitude[i] = p.longitude;
      latitude[i] = p.latitude;
    });
    void this.ask({ type: 'load', longitude, latitude }, [longitude.buffer, latitude.buffer]);
  }

  /** encodeClusters (map-points.ts) of the latest index. */
  async clusters(bbox: [number, number, number, number], zoom: number): Promise<Float64Array> {
    const reply = await this.ask({ type: 'clusters', bbox, zoom });
    return reply.type === 'clusters' ? reply.items : new Float64Array(0);
  }

  async expansionZoom(clusterId: number): Promise<number> {
    const reply = await this.ask({ type: 'expansion', clusterId });
    return reply.type === 'expansion' ? reply.zoom : 0;
  }

  terminate(): void {
    this.worker.terminate();
    this.pending.clear();
  }
}
