/**
 * A local stand-in for ChirpStack v4's gRPC API, for tests: ChirpStack itself (a Rust server with its own
 * PostgreSQL and Redis schema) is not installed here. It serves the real `api.DeviceService` definition
 * from @chirpstack/chirpstack-api over @grpc/grpc-js on a free loopback port, so the client under test
 * speaks the real protocol. Only Enqueue is implemented, as ChirpStack answers it: UNAUTHENTICATED for a
 * wrong token, NOT_FOUND for a DevEUI it does not know, else the new queue item's id; every other method
 * answers UNIMPLEMENTED.
 */
import { randomUUID } from 'node:crypto';
import deviceGrpc from '@chirpstack/chirpstack-api/api/device_grpc_pb.js';
import devicePb from '@chirpstack/chirpstack-api/api/device_pb.js';
import * as grpc from '@grpc/grpc-js';

export interface QueuedItem {
  id: string;
  devEui: string;
  fPort: number;
  confirmed: boolean;
  /** hex */
  data: string;
  authorization: string | undefined;
}

export interface ChirpstackStandIn {
  /** http://127.0.0.1:<port> */
  url: string;
  queued: QueuedItem[];
  close(): Promise<void>;
}

export async function startChirpstackStandIn(options: {
  apiToken: string;
  devEuis: readonly string[];
  /** Answer the first this many enqueues UNAVAILABLE, as a restarting ChirpStack does (default 0). */
  unavailableFirst?: number;
}): Promise<ChirpstackStandIn> {
  const queued: QueuedItem[] = [];
  const known = new Set(options.devEuis);
  let unavailable = options.unavailableFirst ?? 0;
  const server = new grpc.Server();
  server.addService(deviceGrpc.DeviceServiceService, {
    enqueue(
      call: grpc.ServerUnaryCall<InstanceType<typeof devicePb.EnqueueDeviceQueueItemRequest>, unknown>,
      callback: grpc.sendUnaryData<InstanceType<typeof devicePb.EnqueueDeviceQueueItemResponse>>,
    ) {
      const authorization = call.metadata.get('authorization')[0]?.toString();
      if (authorization !== `Bearer ${options.apiToken}`) {
        callback({ code: grpc.status.UNAUTHENTICATED, details: 'Invalid token' });
        return;
      }
      if (unavailable > 0) {
        unavailable -= 1;
        callback({ code: grpc.status.UNAVAILABLE, details: 'the network server is starting' });
        return;
      }
      const item = call.request.getQueueItem();
      if (!item || !known.has(item.getDevEui())) {
        callback({ code: grpc.status.NOT_FOUND, details: 'Object does not exist (id: device)' });
        return;
      }
      const id = randomUUID();
      queued.push({
        id,
        devEui: item.getDevEui(),
        fPort: item.getFPort(),
        confirmed: item.getConfirmed(),
        data: Buffer.from(item.getData_asU8()).toString('hex'),
        authorization,
      });
      const response = new devicePb.EnqueueDeviceQueueItemResponse();
      response.setId(id);
      callback(null, response);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    queued,
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
      }),
  };
}
