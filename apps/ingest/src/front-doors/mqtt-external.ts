/**
 * Distributed profile: ingest subscribes to an external broker (Mosquitto, EMQX) with a shared
 * subscription `$share/<group>/devices/+/up`, so several ingest processes split the uplinks. The broker
 * authenticates devices (see the HTTP auth/ACL endpoints); here we still check that the topic's uuid
 * names an existing device that is not disposed, and drop (with a log line) anything else.
 *
 * mqtt.js hands QoS 1 messages over one at a time per connection and sends the PUBACK when
 * `handleMessage` calls back: we call back once the event log accepted the uplink, so an unaccepted
 * uplink is redelivered by the broker. `connections` parallel connections in the same share group give
 * the process that many uplinks in flight.
 */
import { hostname } from 'node:os';
import mqtt, { type MqttClient } from 'mqtt';
import { acceptUplink, type IngestContext, refusalFor } from '../accept/ingest-context.js';
import { uuidOfUpTopic } from './mqtt-acl.js';
import { MAX_MQTT_PAYLOAD, readMqttPayload } from './mqtt-uplink.js';

export interface ExternalMqttOptions {
  ctx: IngestContext;
  /** mqtt://user:pass@host:1883 */
  url: string;
  /** Share group name (default `ingest`): processes of one group split the uplinks. */
  shareGroup?: string;
  /** Parallel connections of this process (default 4). */
  connections?: number;
  /** Client ids are `<prefix>-<n>` (default `ingest-<hostname>`); kept across restarts for the session. */
  clientIdPrefix?: string;
  /**
   * false (default): a persistent session, so uplinks in flight when the process died (no PUBACK yet)
   * come again when it reconnects with the same client id. Tests use clean sessions.
   */
  cleanSession?: boolean;
}

export interface ExternalMqtt {
  clients: MqttClient[];
  close(): Promise<void>;
}

export async function startExternalMqtt(options: ExternalMqttOptions): Promise<ExternalMqtt> {
  const { ctx } = options;
  const log = ctx.log.child({ door: 'mqtt-external' });
  const topic = `$share/${options.shareGroup ?? 'ingest'}/devices/+/up`;
  const prefix = options.clientIdPrefix ?? `ingest-${hostname()}`;

  const handle = async (packet: mqtt.IPublishPacket): Promise<void> => {
    if (packet.payload.length > MAX_MQTT_PAYLOAD) {
      log.warn(
        { topic: packet.topic, bytes: packet.payload.length },
        'mqtt uplink dropped: payload too large',
      );
      return;
    }
    const uuid = uuidOfUpTopic(packet.topic);
    const device = uuid ? await ctx.directory.deviceByUuid(uuid) : null;
    const refusal = refusalFor(device);
    if (refusal || !device) {
      log.warn({ topic: packet.topic, reason: refusal ?? 'not an uplink topic' }, 'mqtt uplink dropped');
      return;
    }
    await acceptUplink(
      ctx,
      { device, source: 'mqtt', payload: readMqttPayload(packet.payload as Buffer), receivedAt: new Date() },
      'wait',
    );
  };

  const clients = await Promise.all(
    Array.from({ length: options.connections ?? 4 }, async (_, index) => {
      const client = await mqtt.connectAsync(options.url, {
        clientId: `${prefix}-${index}`,
        clean: options.cleanSession ?? false,
        reconnectPeriod: 1000,
      });
      client.handleMessage = (packet, callback) => {
        handle(packet as mqtt.IPublishPacket).then(
          () => callback(),
          (error: unknown) => {
            // No PUBACK. A broker resends an unacknowledged message only after a reconnect, so drop the
            // connection: mqtt.js reconnects after reconnectPeriod and the session delivers it again.
            log.error(
              { err: error, topic: (packet as mqtt.IPublishPacket).topic },
              'mqtt uplink not accepted, reconnecting for redelivery',
            );
            client.stream.destroy();
            callback(error as Error);
          },
        );
      };
      client.on('error', (error) => log.error({ err: error }, 'mqtt connection error'));
      await client.subscribeAsync(topic, { qos: 1 });
      return client;
    }),
  );
  log.info(
    { url: options.url.replace(/\/\/[^@]*@/, '//***@'), topic, connections: clients.length },
    'subscribed to the external broker',
  );

  return {
    clients,
    close: async () => {
      await Promise.all(clients.map((client) => client.endAsync()));
    },
  };
}
