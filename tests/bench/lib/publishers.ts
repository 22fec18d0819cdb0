/**
 * Uplink publishers for the ingest benchmark: one interface, two clients.
 *
 * - `raw` (the default): a plain TCP socket speaking MQTT 3.1.1 (or 5). CONNECT is encoded and PUBACKs are
 *   read with `mqtt-packet` (the encoder/parser mqtt.js itself uses); each topic's PUBLISH header is encoded
 *   once with `mqtt-packet` and kept as a template, so a publish only writes the fixed header's remaining
 *   length, the template, the packet id and the payload bytes into a shared slab, and the packets of one
 *   event-loop turn leave in one socket write. No per-publish promise, packet object or store.
 * - `mqttjs`: mqtt.js's `client.publish(topic, payload, { qos: 1 }, callback)`, as the bench used before.
 *
 * Both give QoS 1 with a completion callback per publish (called on PUBACK, or with an error when the
 * connection closes first) and an `inflight` count, which the bench's windows are built on.
 */
import { type Socket, connect as tcpConnect } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import type { Packet } from 'mqtt-packet';
import * as mqttPacket from 'mqtt-packet';

export type PublisherKind = 'raw' | 'mqttjs';
export type AckCallback = (error?: Error) => void;

/** A topic prepared for publishing (for `raw`, its PUBLISH header encoded once). */
export interface PublishTemplate {
  readonly topic: string;
}

export interface UplinkConnection {
  /** QoS 1 publishes sent and not yet acknowledged. */
  readonly inflight: number;
  template(topic: string): PublishTemplate;
  /** QoS 1 publish; `done` runs once, on the PUBACK or with the error that ended the connection. */
  publish(template: PublishTemplate, payload: Uint8Array, done: AckCallback): void;
  end(): Promise<void>;
}

export interface ConnectOptions {
  /** mqtt://host:port */
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** 4 = MQTT 3.1.1 (default), 5 = MQTT 5. */
  protocolVersion?: 4 | 5;
}

export async function openConnection(kind: PublisherKind, o: ConnectOptions): Promise<UplinkConnection> {
  return kind === 'raw' ? RawMqttConnection.connect(o) : MqttJsConnection.connect(o);
}

// --------------------------------------------------------------------------------------------- mqtt.js
class MqttJsConnection implements UplinkConnection {
  inflight = 0;
  private constructor(private readonly client: MqttClient) {}

  static async connect(o: ConnectOptions): Promise<MqttJsConnection> {
    const client = await mqtt.connectAsync(o.url, {
      clientId: o.clientId,
      reconnectPeriod: 0,
      protocolVersion: o.protocolVersion ?? 4,
      ...(o.username === undefined ? {} : { username: o.username, password: o.password }),
    });
    return new MqttJsConnection(client);
  }

  template(topic: string): PublishTemplate {
    return { topic };
  }

  publish(template: PublishTemplate, payload: Uint8Array, done: AckCallback): void {
    this.inflight += 1;
    this.client.publish(
      template.topic,
      Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
      { qos: 1 },
      (error) => {
        this.inflight -= 1;
        done(error ?? undefined);
      },
    );
  }

  async end(): Promise<void> {
    await this.client.endAsync();
  }
}

// ------------------------------------------------------------------------------------------------- raw
export interface RawTemplate extends PublishTemplate {
  /** First byte of the fixed header: PUBLISH, QoS 1, no DUP, no RETAIN (0x32). */
  readonly header: number;
  /** Variable header up to the packet id: topic length and topic. */
  readonly beforeId: Buffer;
  /** Variable header after the packet id: empty for 3.1.1, the properties length (0) for MQTT 5. */
  readonly afterId: Buffer;
}

const SLAB_BYTES = 64 * 1024;
const KEEPALIVE_S = 60;
const PINGREQ = Buffer.from([0xc0, 0x00]);
const DISCONNECT = Buffer.from([0xe0, 0x00]);

function remainingLengthBytes(n: number): number {
  return n < 128 ? 1 : n < 16_384 ? 2 : n < 2_097_152 ? 3 : 4;
}

/**
 * Encodes a topic's QoS 1 PUBLISH with `mqtt-packet` once and splits it around the packet id, so that
 * publishing is copying bytes. Exported for the unit test.
 */
export function encodeTemplate(topic: string, protocolVersion: 4 | 5 = 4): RawTemplate {
  const packet = mqttPacket.generate(
    { cmd: 'publish', topic, payload: Buffer.alloc(0), qos: 1, dup: false, retain: false, messageId: 1 },
    { protocolVersion },
  );
  let offset = 1;
  while ((packet[offset] ?? 0) & 0x80) offset += 1;
  offset += 1; // past the remaining length
  const topicEnd = offset + 2 + Buffer.byteLength(topic);
  return {
    topic,
    header: packet[0] ?? 0x32,
    beforeId: Buffer.from(packet.subarray(offset, topicEnd)),
    afterId: Buffer.from(packet.subarray(topicEnd + 2)),
  };
}

/** Writes one QoS 1 PUBLISH of `template` with `id` and `payload` into `out` at `at`; returns the end. */
export function writePublish(
  out: Buffer,
  at: number,
  template: RawTemplate,
  id: number,
  payload: Uint8Array,
): number {
  let p = at;
  out[p++] = template.header;
  let remaining = template.beforeId.length + 2 + template.afterId.length + payload.length;
  do {
    let byte = remaining % 128;
    remaining = Math.floor(remaining / 128);
    if (remaining > 0) byte |= 0x80;
    out[p++] = byte;
  } while (remaining > 0);
  out.set(template.beforeId, p);
  p += template.beforeId.length;
  out[p++] = id >> 8;
  out[p++] = id & 0xff;
  if (template.afterId.length > 0) {
    out.set(template.afterId, p);
    p += template.afterId.length;
  }
  out.set(payload, p);
  return p + payload.length;
}

export function publishBytes(template: RawTemplate, payloadBytes: number): number {
  const remaining = template.beforeId.length + 2 + template.afterId.length + payloadBytes;
  return 1 + remainingLengthBytes(remaining) + remaining;
}

class RawMqttConnection implements UplinkConnection {
  inflight = 0;
  /** Completion callbacks by packet id (1..65535). */
  private readonly pending: Array<AckCallback | undefined> = new Array(65_536).fill(undefined);
  private lastId = 0;
  private slab = Buffer.allocUnsafe(SLAB_BYTES);
  private start = 0;
  private pos = 0;
  private flushQueued = false;
  private closedWith: Error | undefined;
  private readonly ping: NodeJS.Timeout;
  private readonly parser: ReturnType<typeof mqttPacket.parser>;

  private constructor(
    private readonly socket: Socket,
    private readonly protocolVersion: 4 | 5,
  ) {
    this.parser = mqttPacket.parser({ protocolVersion });
    this.parser.on('packet', (packet: Packet) => this.onPacket(packet));
    this.parser.on('error', (error: Error) => this.close(error));
    socket.on('data', (chunk: Buffer) => this.parser.parse(chunk));
    socket.on('error', (error) => this.close(error));
    socket.on('close', () => this.close(new Error('connection closed')));
    this.ping = setInterval(
      () => {
        if (!this.closedWith) socket.write(PINGREQ);
      },
      (KEEPALIVE_S * 1000) / 2,
    );
    this.ping.unref();
  }

  static async connect(o: ConnectOptions): Promise<RawMqttConnection> {
    const url = new URL(o.url);
    const protocolVersion = o.protocolVersion ?? 4;
    const socket = tcpConnect({ host: url.hostname, port: Number(url.port || 1883) });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    // CONNACK is read with a parser of its own, before the connection's handlers take over the socket.
    const connack = new Promise<void>((resolve, reject) => {
      const parser = mqttPacket.parser({ protocolVersion });
      const onData = (chunk: Buffer) => parser.parse(chunk);
      const fail = (error: Error) => {
        socket.off('data', onData);
        socket.destroy();
        reject(error);
      };
      parser.on('packet', (packet: Packet) => {
        socket.off('data', onData);
        socket.off('error', fail);
        socket.off('close', onClose);
        if (packet.cmd !== 'connack') return fail(new Error(`expected CONNACK, got ${packet.cmd}`));
        const code = packet.reasonCode ?? packet.returnCode ?? 0;
        if (code !== 0) return fail(new Error(`CONNACK refused: ${code}`));
        resolve();
      });
      parser.on('error', fail);
      const onClose = () => fail(new Error('connection closed before CONNACK'));
      socket.on('data', onData);
      socket.once('error', fail);
      socket.once('close', onClose);
    });
    socket.write(
      mqttPacket.generate(
        {
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion,
          clientId: o.clientId,
          clean: true,
          keepalive: KEEPALIVE_S,
          ...(o.username === undefined
            ? {}
            : { username: o.username, password: Buffer.from(o.password ?? '') }),
        },
        { protocolVersion },
      ),
    );
    await connack;
    return new RawMqttConnection(socket, protocolVersion);
  }

  template(topic: string): PublishTemplate {
    return encodeTemplate(topic, this.protocolVersion);
  }

  publish(template: PublishTemplate, payload: Uint8Array, done: AckCallback): void {
    if (this.closedWith) {
      const error = this.closedWith;
      queueMicrotask(() => done(error));
      return;
    }
    if (this.inflight >= 65_535) throw new Error('more than 65535 publishes in flight on one connection');
    const t = template as RawTemplate;
    let id = this.lastId;
    do id = id === 65_535 ? 1 : id + 1;
    while (this.pending[id] !== undefined);
    this.lastId = id;
    const bytes = publishBytes(t, payload.length);
    if (this.pos + bytes > this.slab.length) {
      this.flush();
      this.slab = Buffer.allocUnsafe(Math.max(SLAB_BYTES, bytes));
      this.start = 0;
      this.pos = 0;
    }
    this.pos = writePublish(this.slab, this.pos, t, id, payload);
    this.pending[id] = done;
    this.inflight += 1;
    if (!this.flushQueued) {
      this.flushQueued = true;
      process.nextTick(this.flush);
    }
  }

  /** One socket write for the packets written since the last one (the slab region is not reused). */
  private readonly flush = (): void => {
    this.flushQueued = false;
    if (this.pos === this.start || this.closedWith) return;
    this.socket.write(this.slab.subarray(this.start, this.pos));
    this.start = this.pos;
  };

  private onPacket(packet: Packet): void {
    if (packet.cmd !== 'puback') return; // PINGRESP; nothing else is expected
    const id = packet.messageId ?? 0;
    const done = this.pending[id];
    if (done === undefined) return;
    this.pending[id] = undefined;
    this.inflight -= 1;
    const code = packet.reasonCode ?? 0;
    done(code >= 0x80 ? new Error(`PUBACK reason code ${code}`) : undefined);
  }

  private close(error: Error): void {
    if (this.closedWith) return;
    this.closedWith = error;
    clearInterval(this.ping);
    for (let id = 1; id < this.pending.length; id++) {
      const done = this.pending[id];
      if (done === undefined) continue;
      this.pending[id] = undefined;
      this.inflight -= 1;
      done(error);
    }
  }

  async end(): Promise<void> {
    if (this.closedWith) return;
    this.flush();
    const closed = new Promise((resolve) => this.socket.once('close', resolve));
    this.socket.end(DISCONNECT);
    await closed;
  }
}
