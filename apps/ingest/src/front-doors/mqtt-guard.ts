/**
 * Limits of the embedded broker that hold before a client authenticated (issue #28): aedes' parser
 * buffers a whole packet (up to 256 MiB) before anyone looks at it, so the guard reads each packet's
 * fixed header as the bytes arrive and closes the connection as soon as a packet announces more than it
 * may send; connections are capped per address and in total when they are accepted.
 */
import type { Socket } from 'node:net';
import type { Logger } from '@iot/runtime';
import { MAX_MQTT_PAYLOAD } from './mqtt-uplink.js';

export interface MqttLimits {
  /** A client that has not sent its CONNECT by then is closed (MQTT_CONNECT_TIMEOUT_SECONDS). */
  connectTimeoutMs: number;
  /** Open connections the broker keeps at most (MQTT_MAX_CONNECTIONS). */
  maxConnections: number;
  /** Open connections from one remote address (MQTT_MAX_CONNECTIONS_PER_ADDRESS). */
  maxConnectionsPerAddress: number;
  /** Loopback clients (the in-process simulator, local tools) count only toward the total. */
  exemptLoopback: boolean;
}

/** The configuration's defaults, for a broker started without one (tests). */
export const DEFAULT_MQTT_LIMITS: MqttLimits = {
  connectTimeoutMs: 10_000,
  maxConnections: 50_000,
  maxConnectionsPerAddress: 100,
  exemptLoopback: true,
};

/** Bytes a client may send before it authenticated: a device's CONNECT (uuid, token) needs a few hundred. */
const MAX_UNAUTHENTICATED_BYTES = 8 * 1024;
/** Largest packet of an authenticated device: the largest uplink plus its topic and properties. */
const MAX_PACKET_BYTES = MAX_MQTT_PAYLOAD + 1024;

/** Follows the packet boundaries of one connection's byte stream without buffering any payload. */
class PacketSizeGuard {
  authenticated = false;
  private unauthenticatedBytes = 0;
  private skip = 0; // bytes of the current packet still to pass
  private headerBytes = 0; // 0: at a packet's first byte; 1-4: inside its remaining-length integer
  private length = 0;
  private multiplier = 1;

  /** The problem when `chunk` breaks a limit, else null. */
  check(chunk: Buffer): string | null {
    if (!this.authenticated) {
      this.unauthenticatedBytes += chunk.length;
      if (this.unauthenticatedBytes > MAX_UNAUTHENTICATED_BYTES)
        return 'too many bytes before authentication';
    }
    let at = 0;
    while (at < chunk.length) {
      if (this.skip > 0) {
        const passed = Math.min(this.skip, chunk.length - at);
        this.skip -= passed;
        at += passed;
        continue;
      }
      const byte = chunk[at++] as number;
      if (this.headerBytes === 0) {
        this.headerBytes = 1;
        this.length = 0;
        this.multiplier = 1;
        continue;
      }
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      if (byte & 0x80) {
        if (++this.headerBytes > 4) return 'malformed remaining length';
        continue;
      }
      const limit = this.authenticated ? MAX_PACKET_BYTES : MAX_UNAUTHENTICATED_BYTES;
      if (this.length > limit) return this.authenticated ? 'payload too large' : 'connect packet too large';
      this.skip = this.length;
      this.headerBytes = 0;
    }
    return null;
  }
}

const isLoopback = (address: string) =>
  address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.');

/**
 * Counts open connections per remote address and in total; `admit` refuses (destroys) a socket over a cap,
 * else wraps its `read` so that every chunk aedes takes passes the socket's PacketSizeGuard first.
 */
export class ConnectionGuard {
  private readonly perAddress = new Map<string, number>();
  private total = 0;
  private readonly guards = new WeakMap<Socket, PacketSizeGuard>();

  constructor(
    private readonly limits: MqttLimits,
    private readonly log: Logger,
  ) {}

  admit(socket: Socket): boolean {
    const address = socket.remoteAddress ?? '';
    const fromAddress = this.perAddress.get(address) ?? 0;
    const capped = !(this.limits.exemptLoopback && isLoopback(address));
    if (
      this.total >= this.limits.maxConnections ||
      (capped && fromAddress >= this.limits.maxConnectionsPerAddress)
    ) {
      this.log.warn(
        { address, fromAddress, total: this.total },
        'mqtt connection refused: too many connections',
      );
      socket.destroy();
      return false;
    }
    this.total++;
    this.perAddress.set(address, fromAddress + 1);
    socket.once('close', () => this.release(address));
    this.watch(socket);
    return true;
  }

  /** Lifts the connection to the packet size of an authenticated device. */
  authenticated(socket: Socket): void {
    const guard = this.guards.get(socket);
    if (guard) guard.authenticated = true;
  }

  private release(address: string): void {
    this.total--;
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
  }

  private watch(socket: Socket): void {
    const guard = new PacketSizeGuard();
    this.guards.set(socket, guard);
    const log = this.log;
    const read = socket.read;
    // aedes pulls with read() on 'readable' (and flowing mode reads through it too): the guard sees every
    // chunk before mqtt-packet's parser buffers it.
    socket.read = function guardedRead(this: Socket, size?: number) {
      const chunk: unknown = read.call(this, size);
      if (!Buffer.isBuffer(chunk)) return chunk;
      const problem = guard.check(chunk);
      if (problem === null) return chunk;
      const message =
        problem === 'payload too large' ? 'mqtt uplink refused: payload too large' : 'mqtt connection closed';
      log.warn({ address: socket.remoteAddress, problem }, message);
      socket.destroy();
      return null;
    };
  }
}
