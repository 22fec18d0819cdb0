/**
 * LoRaWAN downlinks queued at ChirpStack v4 through its gRPC API (`api.DeviceService/Enqueue`), with the
 * client ChirpStack publishes for it (@chirpstack/chirpstack-api on @grpc/grpc-js). ChirpStack sends the
 * bytes to the device in a receive window after its next uplink; Enqueue answers once the item is queued.
 *
 * The address is a company's setting, so it is guarded like an http action's URL: resolved here, refused
 * when any address is loopback, private or link-local (unless HTTP_ACTIONS_ALLOW_PRIVATE, as an on-premises
 * ChirpStack needs), and the channel connects to exactly the address checked (the host name stays the
 * HTTP/2 authority and the TLS server name), so a name cannot resolve to another address in between.
 */
import deviceGrpc from '@chirpstack/chirpstack-api/api/device_grpc_pb.js';
import devicePb from '@chirpstack/chirpstack-api/api/device_pb.js';
import * as grpc from '@grpc/grpc-js';
import { ipLiteral, isPublicAddress, lookupAllowed, RefusedTargetError } from '../http/ssrf-guard';
import { NetworkServerRefusedError } from './network-server-refused';

export interface ChirpstackServer {
  /** http://host:port (plaintext HTTP/2) or https://host:port (TLS). */
  apiUrl: string;
  /** A ChirpStack API token (web interface: API keys), sent as `authorization: Bearer <token>`. */
  apiToken: string;
}

export interface ChirpstackQueueItem {
  /** 16 hex digits. */
  devEui: string;
  fPort: number;
  bytes: Uint8Array;
  confirmed?: boolean;
}

/** gRPC statuses that a second attempt answers the same way. */
const PERMANENT = new Set([
  grpc.status.INVALID_ARGUMENT,
  grpc.status.NOT_FOUND,
  grpc.status.PERMISSION_DENIED,
  grpc.status.UNAUTHENTICATED,
  grpc.status.FAILED_PRECONDITION,
  grpc.status.UNIMPLEMENTED,
]);

/**
 * The gRPC channel of an API URL, pinned to a checked address: target `ipv4:` / `ipv6:` of the resolved
 * address, the host name as authority and TLS server name.
 */
async function channelOf(
  apiUrl: string,
  allowed: (address: string) => boolean,
): Promise<{ target: string; credentials: grpc.ChannelCredentials; options: grpc.ChannelOptions }> {
  const url = new URL(apiUrl);
  const tls = url.protocol === 'https:';
  const port = url.port || (tls ? '443' : '80');
  // A literal (brackets of IPv6 removed) resolves to itself, checked the same way.
  const host = ipLiteral(url.hostname) ?? url.hostname;
  let address: string;
  try {
    address = (await lookupAllowed(host, allowed, 'ChirpStack at'))[0]!.address;
  } catch (error) {
    if (error instanceof RefusedTargetError) {
      throw new NetworkServerRefusedError(error.message, 'refused target');
    }
    throw error;
  }
  return {
    target: address.includes(':') ? `ipv6:[${address}]:${port}` : `ipv4:${address}:${port}`,
    credentials: tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure(),
    options: {
      'grpc.default_authority': `${url.hostname}:${port}`,
      ...(tls ? { 'grpc.ssl_target_name_override': host } : {}),
    },
  };
}

/**
 * Queues the bytes for the device and resolves with ChirpStack's queue item id. A refused address, or a
 * refusal of ChirpStack's that a retry would meet again, throws NetworkServerRefusedError; an unreachable
 * or failing server (or a name that does not resolve) throws a plain Error. The client lives for this call
 * only: downlinks are rare (rate-limited per channel), and a client kept per company would have to follow
 * changes of its address and token.
 */
export async function enqueueChirpstackDownlink(
  server: ChirpstackServer,
  item: ChirpstackQueueItem,
  options: { timeoutMs?: number; allowPrivate?: boolean } = {},
): Promise<{ reference: string }> {
  const channel = await channelOf(server.apiUrl, options.allowPrivate ? () => true : isPublicAddress);
  const client = new deviceGrpc.DeviceServiceClient(channel.target, channel.credentials, channel.options);
  const queueItem = new devicePb.DeviceQueueItem();
  queueItem.setDevEui(item.devEui);
  queueItem.setFPort(item.fPort);
  queueItem.setConfirmed(item.confirmed ?? false);
  queueItem.setData(item.bytes);
  const request = new devicePb.EnqueueDeviceQueueItemRequest();
  request.setQueueItem(queueItem);
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${server.apiToken}`);
  try {
    return await new Promise((resolve, reject) => {
      client.enqueue(
        request,
        metadata,
        { deadline: Date.now() + (options.timeoutMs ?? 10_000) },
        (error: grpc.ServiceError | null, response?: { getId(): string }) => {
          if (error) {
            const status = grpc.status[error.code] ?? String(error.code);
            const message = `ChirpStack ${status}: ${error.details || error.message}`;
            reject(
              PERMANENT.has(error.code) ? new NetworkServerRefusedError(message, status) : new Error(message),
            );
          } else {
            resolve({ reference: response?.getId() ?? '' });
          }
        },
      );
    });
  } finally {
    client.close();
  }
}
