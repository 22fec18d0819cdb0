/** The harness's floor: publishers, a bare subscriber and the mail transport, nothing between. */
import { randomBytes } from 'node:crypto';
import { createServer as createNetServer } from 'node:net';
import { transportOptions } from '@iot/delivery';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import nodemailer from 'nodemailer';
import { startOwnMosquitto } from '../lib/mosquitto.js';
import { startMailSink } from './mail-sink.js';
import { DEVICES, log, MOSQUITTO_CONNECTIONS, MOSQUITTO_URL, THRESHOLD } from './settings.js';
import { connectPublishers, countPubacks, type Side } from './side.js';

// ----------------------------------------------------------------------------------------------- floor
export interface FloorOptions {
  /**
   * `pooled`: the notifier's transport (a pool, TCP_NODELAY); `default`: nodemailer's default (Node-RED's:
   * a connection per mail, Nagle on); `fresh`: a connection per mail with TCP_NODELAY (splits the two).
   */
  transport: 'pooled' | 'default' | 'fresh';
  /** `own`: a Mosquitto with the shipped configuration; `machine`: MOSQUITTO_URL (Node-RED's); `aedes`: in-process. */
  broker: 'own' | 'machine' | 'aedes';
}

/**
 * The harness's floor: the same publishers (QoS 1) and SMTP sink, and nothing between but a bare MQTT
 * subscriber (or, on aedes, the broker's publish event) that mails each firing uplink at once. What
 * the bench can show at best for a side using that broker and mail transport.
 */
export async function floorSide(o: FloorOptions): Promise<Side> {
  const mail = await startMailSink();
  const mosquitto = o.broker === 'own' ? await startOwnMosquitto() : undefined;
  const prefix = `bench-floor-${randomBytes(4).toString('hex')}`;
  const smtpUrl = `smtp://127.0.0.1:${mail.port}`;
  const transport =
    o.transport === 'pooled'
      ? nodemailer.createTransport(transportOptions(smtpUrl, { maxConnections: 32 }))
      : o.transport === 'fresh'
        ? nodemailer.createTransport({
            ...(transportOptions(smtpUrl, { maxConnections: 1 }) as object),
            pool: false,
          } as Parameters<typeof nodemailer.createTransport>[0])
        : nodemailer.createTransport(smtpUrl);
  const onUplink = (payload: Buffer) => {
    const body = JSON.parse(payload.toString()) as { temperature?: number };
    const v = body.temperature;
    if (typeof v !== 'number' || v < THRESHOLD) return;
    transport
      .sendMail({
        from: 'floor <no-reply@localhost>',
        to: 'bench@example.test',
        subject: `bench ${v}`,
        text: `temperature ${v}`,
      })
      .catch((error: unknown) => log.warn({ err: error }, 'floor mail failed'));
  };
  let url: string;
  let closeBroker: () => Promise<void>;
  let subscriber: MqttClient | undefined;
  if (o.broker === 'aedes') {
    const broker = await Aedes.createBroker();
    broker.on('publish', (packet, client) => {
      if (client) onUplink(packet.payload as Buffer);
    });
    const server = createNetServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `mqtt://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    closeBroker = async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
  } else {
    url = mosquitto?.url ?? MOSQUITTO_URL;
    subscriber = await mqtt.connectAsync(url, { clientId: `${prefix}-sub`, reconnectPeriod: 0 });
    subscriber.on('message', (_topic, payload) => onUplink(payload));
    await subscriber.subscribeAsync(`${prefix}/+/up`, { qos: 1 });
    closeBroker = async () => {
      await subscriber?.endAsync();
      await mosquitto?.stop();
    };
  }
  // aedes: one connection per device, as ours; Mosquitto: a few connections, as Node-RED's publishers.
  const connections = o.broker === 'aedes' ? DEVICES : MOSQUITTO_CONNECTIONS;
  const publishers = await connectPublishers(url, prefix, connections);
  const accepted = countPubacks(publishers);
  return {
    name:
      `floor: ${o.broker === 'aedes' ? 'aedes in-process' : o.broker === 'own' ? 'own Mosquitto' : 'machine Mosquitto'}, ` +
      `${{ pooled: 'pool + TCP_NODELAY', default: 'default transport', fresh: 'connection per mail + TCP_NODELAY' }[o.transport]}` +
      ` (bare subscriber, nodemailer ${{ pooled: "with the notifier's transport options", default: "default transport as Node-RED's", fresh: 'without a pool, Nagle off' }[o.transport]})`,
    mail,
    publishers,
    accepted,
    evaluated: async () => Number.NaN,
    window: 0,
    close: async () => {
      await Promise.all(publishers.map((p) => p.client.endAsync()));
      await closeBroker();
      transport.close();
      await mail.close();
    },
  };
}
