/** The load generator: MQTT publishers in closed loops, one uplink per PUBACK. */
import { randomBytes } from 'node:crypto';
import { buildUplink, profileOf } from '@iot/simulator';
import { openConnection, type PublishTemplate, type UplinkConnection } from '../lib/publishers.js';
import type { BenchDevice } from './fleet.js';
import { CONNECTIONS_EMBEDDED, CONNECTIONS_MOSQUITTO, PUBLISHER } from './settings.js';

// ------------------------------------------------------------------------------------------ publishers
/** Topics a publisher sends to: the devices' uplinks, the MQTT-alone phase's, and topics nobody reads. */
type TopicKind = 'up' | 'alone' | 'void';
const TOPIC_PREFIX: Record<TopicKind, string> = {
  up: 'devices/',
  alone: 'bench-mqtt-alone/',
  void: 'bench-void/',
};

export interface Publisher {
  conn: UplinkConnection;
  /** Devices this connection publishes for (one on the embedded broker, many on Mosquitto). */
  devices: BenchDevice[];
  /** Per topic kind, one template per device (encoded once, on first use). */
  templates: Partial<Record<TopicKind, PublishTemplate[]>>;
  next: number;
}

export async function openPublishers(
  url: string,
  devices: BenchDevice[],
  embedded: boolean,
): Promise<Publisher[]> {
  const open = async (clientId: string, mine: BenchDevice[], auth?: BenchDevice): Promise<Publisher> => ({
    conn: await openConnection(PUBLISHER, {
      url,
      clientId,
      ...(auth ? { username: auth.uuid, password: auth.token } : {}),
    }),
    devices: mine,
    templates: {},
    next: 0,
  });
  if (embedded)
    return Promise.all(
      devices
        .slice(0, CONNECTIONS_EMBEDDED)
        .map((d) => open(`bench-pub-${randomBytes(4).toString('hex')}`, [d], d)),
    );
  return Promise.all(
    Array.from({ length: CONNECTIONS_MOSQUITTO }, (_, c) =>
      open(
        `bench-pub-${randomBytes(4).toString('hex')}`,
        devices.filter((_d, i) => i % CONNECTIONS_MOSQUITTO === c),
      ),
    ),
  );
}

const uplinkState = { clicks: 0, startedAt: Date.now(), rnd: Math.random };

/**
 * Builds the next device's uplink (JSON with a fresh message id and time), calls `before` (the publish
 * timestamp) and publishes it with QoS 1; `done` runs on the PUBACK.
 */
export function publishNext(
  p: Publisher,
  kind: TopicKind,
  before: () => void,
  done: (error?: Error) => void,
): void {
  const index = p.next % p.devices.length;
  const device = p.devices[index] as BenchDevice;
  p.next += 1;
  let templates = p.templates[kind];
  if (!templates) {
    templates = p.devices.map((d) => p.conn.template(`${TOPIC_PREFIX[kind]}${d.uuid}/up`));
    p.templates[kind] = templates;
  }
  const uplink = buildUplink(device, profileOf(device, device.id), uplinkState, Date.now());
  before();
  p.conn.publish(templates[index] as PublishTemplate, uplink.body, done);
}

export const noop = () => {};

/**
 * Closed loop: every connection keeps `window` QoS 1 publishes in flight until `endAt` (performance.now()),
 * publishing the next uplink as each PUBACK arrives; while `canSend()` is false it waits 2 ms. Resolves
 * when every connection has its publishes acknowledged. Returns publishes failed (connection errors).
 */
export function closedLoop(
  publishers: Publisher[],
  kind: TopicKind,
  endAt: number,
  window: number,
  canSend: () => boolean,
  before: () => void,
  onAck: () => void,
): Promise<number> {
  return new Promise((resolve) => {
    let running = publishers.length;
    let failed = 0;
    if (running === 0) resolve(0);
    for (const p of publishers) {
      let waiting = false;
      let finished = false;
      let broken = false;
      const acked = (error?: Error) => {
        if (error) {
          failed += 1;
          broken = true; // the connection is gone: let its in-flight publishes fail, send no more
        } else onAck();
        pump();
      };
      const pump = () => {
        if (waiting || finished) return;
        let now = performance.now();
        while (!broken && p.conn.inflight < window && now < endAt) {
          if (!canSend()) {
            waiting = true;
            setTimeout(() => {
              waiting = false;
              pump();
            }, 2);
            return;
          }
          publishNext(p, kind, before, acked);
          now = performance.now();
        }
        if ((now >= endAt || broken) && p.conn.inflight === 0) {
          finished = true;
          running -= 1;
          if (running === 0) resolve(failed);
        }
      };
      pump();
    }
  });
}
