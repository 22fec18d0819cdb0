/**
 * Distributed profile: ingest subscribes to an external broker (Mosquitto, EMQX) with a shared
 * subscription `$share/<group>/devices/+/up`, so several ingest processes split the uplinks. The broker
 * authenticates devices (see the HTTP auth/ACL endpoints); here we still check that the topic's uuid
 * names an existing device that is not disposed, and drop (with a log line) anything else.
 *
 * Each connection takes QoS 1 uplinks off the socket at once and keeps up to `window` of them waiting
 * for the event log (PubackWindow); the PUBACK of an uplink is sent only after the log accepted it, in
 * the order the uplinks came. mqtt.js would send the PUBACK when `handleMessage` calls back and read the
 * next packet only then (one uplink per connection per log round trip), so the callback is given an
 * error, which makes mqtt.js read on without a PUBACK, and ingest writes the PUBACK itself. The
 * connection speaks MQTT 5 and announces `receiveMaximum = window`, so the broker itself sends no more
 * than the window unacknowledged (MQTT 3.1.1 has no such announcement: Mosquitto's
 * `max_inflight_messages` would be the limit there).
 */
import { hostname } from 'node:os';
import type { UplinkEnvelope } from '@iot/contracts/uplinks';
import mqtt, { type MqttClient } from 'mqtt';
import { buildUplinkEnvelope, buildUplinkEnvelopeSync } from '../accept/build-uplink-envelope.js';
import {
  gateUplink,
  gateUplinkCached,
  type IngestContext,
  refusalFor,
  submitEnvelope,
} from '../accept/ingest-context.js';
import { needsUserCodec } from '../decode/decode-uplink.js';
import { uuidOfUpTopic } from './mqtt-acl.js';
import { MAX_MQTT_PAYLOAD, readMqttPayload } from './mqtt-uplink.js';
import { PubackWindow } from './puback-window.js';

export interface ExternalMqttOptions {
  ctx: IngestContext;
  /** mqtt://user:pass@host:1883 */
  url: string;
  /** Share group name (default `ingest`): processes of one group split the uplinks. */
  shareGroup?: string;
  /** Parallel connections of this process (default 4). */
  connections?: number;
  /**
   * QoS 1 uplinks per connection taken off the socket and not yet acknowledged (default 1000): waiting
   * for the log, or accepted and waiting for an older one's PUBACK. Bounds ingest's memory per connection.
   */
  window?: number;
  /** Client ids are `<prefix>-<n>` (default `ingest-<hostname>`); kept across restarts for the session. */
  clientIdPrefix?: string;
  /**
   * false (default): a persistent session (MQTT 5 session expiry: never), so uplinks in flight when the
   * process died (no PUBACK yet) come again when it reconnects with the same client id. Tests use clean
   * sessions.
   */
  cleanSession?: boolean;
}

export interface ExternalMqtt {
  clients: MqttClient[];
  close(): Promise<void>;
}

/** Given to mqtt.js's handleMessage callback: read the next packet, send no PUBACK (ingest sends it). */
const PUBACK_BY_INGEST = new Error('PUBACK is sent by ingest once the event log accepted the uplink');
const SESSION_NEVER_EXPIRES = 0xffffffff;

export async function startExternalMqtt(options: ExternalMqttOptions): Promise<ExternalMqtt> {
  const { ctx } = options;
  const log = ctx.log.child({ door: 'mqtt-external' });
  const topic = `$share/${options.shareGroup ?? 'ingest'}/devices/+/up`;
  const prefix = options.clientIdPrefix ?? `ingest-${hostname()}`;
  const windowSize = options.window ?? 1000;
  const clean = options.cleanSession ?? false;

  /** The uplink's envelope, or null when it is dropped (logged). */
  const prepare = async (packet: mqtt.IPublishPacket): Promise<UplinkEnvelope | null> => {
    if (packet.payload.length > MAX_MQTT_PAYLOAD) {
      log.warn(
        { topic: packet.topic, bytes: packet.payload.length },
        'mqtt uplink dropped: payload too large',
      );
      return null;
    }
    const uuid = uuidOfUpTopic(packet.topic);
    const device = uuid ? await ctx.directory.deviceByUuid(uuid) : null;
    const refusal = refusalFor(device);
    if (refusal || !device) {
      log.warn({ topic: packet.topic, reason: refusal ?? 'not an uplink topic' }, 'mqtt uplink dropped');
      return null;
    }
    // A blocked or deleted company's uplink, or one over its limit, is dropped (counted and logged).
    if (await gateUplink(ctx, device, 'mqtt-external')) return null;
    return buildUplinkEnvelope(
      { device, source: 'mqtt', payload: readMqttPayload(packet.payload as Buffer), receivedAt: new Date() },
      ctx,
    );
  };

  /**
   * The envelope of an uplink whose device and company are cached and which needs no user codec, built
   * at once; null when its company refuses it (counted and logged); undefined for any other (`prepare`
   * then looks up, decodes, or drops and logs it).
   */
  const prepareNow = (packet: mqtt.IPublishPacket): UplinkEnvelope | null | undefined => {
    if (packet.payload.length > MAX_MQTT_PAYLOAD) return undefined;
    const uuid = uuidOfUpTopic(packet.topic);
    const device = uuid ? ctx.directory.cachedDeviceByUuid(uuid) : undefined;
    if (!device || refusalFor(device)) return undefined;
    const payload = readMqttPayload(packet.payload as Buffer);
    if (needsUserCodec(device, payload)) return undefined;
    const refusal = gateUplinkCached(ctx, device, 'mqtt-external');
    if (refusal === undefined) return undefined;
    if (refusal !== null) return null;
    return buildUplinkEnvelopeSync({ device, source: 'mqtt', payload, receivedAt: new Date() });
  };

  const open = async (index: number): Promise<MqttClient> => {
    // Connected only once handleMessage is ours: a persistent session's unacknowledged uplinks come
    // right after the CONNACK, and mqtt.js's default handler would acknowledge them unstored.
    const client = mqtt.connect(options.url, {
      manualConnect: true,
      clientId: `${prefix}-${index}`,
      clean,
      protocolVersion: 5,
      properties: {
        receiveMaximum: windowSize,
        sessionExpiryInterval: clean ? 0 : SESSION_NEVER_EXPIRES,
      },
      reconnectPeriod: 1000,
    });
    // PUBACKs of one turn leave in one write: the ids are gathered and written as one buffer of 4-byte
    // PUBACKs (reason code 0 and no properties may be left out, MQTT 5.0 section 3.4.2.1; the same
    // 4 bytes in 3.1.1) straight to the socket, instead of mqtt.js building and writing each.
    let pubacks: number[] = [];
    let pubacksStream: typeof client.stream | undefined;
    const writePubacks = () => {
      const ids = pubacks;
      const stream = pubacksStream;
      pubacks = [];
      pubacksStream = undefined;
      // A PUBACK is only for the connection the message came on; on the next one the id means
      // another message (the broker redelivers the unacknowledged ones from the session).
      if (ids.length === 0 || !client.connected || client.stream !== stream || stream.destroyed) return;
      const out = Buffer.allocUnsafe(ids.length * 4);
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        out[i * 4] = 0x40;
        out[i * 4 + 1] = 2;
        out[i * 4 + 2] = id >> 8;
        out[i * 4 + 3] = id & 0xff;
      }
      stream.write(out);
    };
    const window = new PubackWindow(windowSize, (messageId) => {
      if (!client.connected) return;
      if (pubacksStream !== client.stream) {
        if (pubacks.length > 0) writePubacks();
        pubacksStream = client.stream;
        queueMicrotask(writePubacks);
      }
      pubacks.push(messageId);
    });
    client.on('close', () => window.reset());
    // Envelopes are built one after the other per connection, so uplinks reach the publisher (and the
    // log) in the order this connection received them, even when a device lookup or a codec is slow.
    // The common uplink (device cached, no user codec) is built and handed to the publisher at once,
    // without a promise; it may take that way only while no uplink of this connection is on the
    // asynchronous one (`slow`), so the order holds.
    let preparing: Promise<unknown> = Promise.resolve();
    let slow = 0;

    client.handleMessage = (received, callback) => {
      const packet = received as mqtt.IPublishPacket;
      const stream = client.stream;
      // QoS 0 has no PUBACK, but its uplinks count against the window too, so they cannot pile up
      // in memory while the log is slow.
      const messageId = packet.qos === 1 ? packet.messageId : undefined;
      const inWindow = window.admit(messageId, () =>
        messageId === undefined ? callback() : callback(PUBACK_BY_INGEST),
      );
      /** The uplink was accepted by the log or dropped (no error), or not accepted (error). */
      const settled = (error?: unknown) => {
        if (error === undefined) {
          if (client.stream === stream) inWindow.accepted();
          return;
        }
        if (messageId === undefined) {
          // QoS 0: nothing to redeliver. The uplink is lost, said so, and the window moves on.
          log.error({ err: error, topic: packet.topic }, 'mqtt uplink (QoS 0) not accepted by the log, lost');
          if (client.stream === stream) inWindow.accepted();
          return;
        }
        // No PUBACK. A broker resends an unacknowledged message only after a reconnect, so drop the
        // connection: mqtt.js reconnects after reconnectPeriod and the session delivers it again.
        log.error(
          { err: error, topic: packet.topic },
          'mqtt uplink not accepted, reconnecting for redelivery',
        );
        if (client.stream === stream) stream.destroy();
      };
      if (slow === 0) {
        let envelope: UplinkEnvelope | null | undefined;
        try {
          envelope = prepareNow(packet);
        } catch (error) {
          settled(error);
          return;
        }
        if (envelope === null) {
          settled();
          return;
        }
        if (envelope) {
          submitEnvelope(ctx, envelope, settled);
          return;
        }
      }
      slow++;
      const prepared = preparing.then(() => prepare(packet));
      preparing = prepared.catch(() => undefined);
      prepared.then(
        (built) => {
          slow--;
          if (built) submitEnvelope(ctx, built, settled);
          else settled();
        },
        (error: unknown) => {
          slow--;
          settled(error);
        },
      );
    };
    client.on('error', (error) => log.error({ err: error }, 'mqtt connection error'));
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => {
        client.end(true);
        reject(error);
      };
      client.once('error', failed);
      client.once('connect', () => {
        client.off('error', failed);
        resolve();
      });
      client.connect();
    });
    await client.subscribeAsync(topic, { qos: 1 });
    // After a reconnect, subscribe afresh. A restarted Mosquitto (2.0) restores the persistent session
    // with its shared subscription, but delivers nothing to it, and a SUBSCRIBE to it changes nothing
    // (the fault suite's broker restart left ingest connected and deaf); unsubscribing first mends it.
    // Without a session mqtt.js subscribes again itself; once more is harmless.
    client.on('connect', (connack) => {
      const renew = connack.sessionPresent ? client.unsubscribeAsync(topic) : Promise.resolve();
      renew
        .then(() => client.subscribeAsync(topic, { qos: 1 }))
        .catch((error: unknown) => {
          log.error(
            { err: error, topic },
            'mqtt subscription after a reconnect failed; the next reconnect retries',
          );
        });
    });
    return client;
  };

  const clients = await Promise.all(
    Array.from({ length: options.connections ?? 4 }, (_, index) => open(index)),
  );
  log.info(
    {
      url: options.url.replace(/\/\/[^@]*@/, '//***@'),
      topic,
      connections: clients.length,
      window: windowSize,
    },
    'subscribed to the external broker',
  );

  return {
    clients,
    close: async () => {
      await Promise.all(clients.map((client) => client.endAsync()));
    },
  };
}
