/**
 * Fault suite (issue #28): under a steady load of uplinks whose rules mail, PostgreSQL, Redis, NATS and
 * the MQTT broker (the test's own) are restarted one after the other, as `pg_ctlcluster ... restart` or a
 * service manager would. Every app reconnects by itself (none exits, none is restarted), no acknowledged
 * uplink is lost, no mail lost or sent twice; the time until uplinks are acknowledged again and until a
 * new uplink's mail arrives is printed per service. `FAULT_SERVICES=nats,mosquitto` restarts only those
 * (a diagnosis); `FAULT_OUTPUT_DIR` keeps the apps' whole output.
 */
import mqtt from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import {
  account,
  clean,
  type FaultRig,
  mailCounts,
  type RigApp,
  type ServiceName,
  sleep,
  startFaultRig,
  startLoad,
  waitForAcks,
} from './fault-rig.js';

let rig: FaultRig;

beforeAll(async () => {
  rig = await startFaultRig(7);
});

afterAll(async () => {
  await rig?.close();
});

/**
 * MQTT uplinks of the probe device through the broker, one a second, until one is stored: ingest's
 * shared subscription works. (One published before ingest subscribed again after a broker restart is
 * dropped by Mosquitto: nobody subscribed to it.)
 */
async function probeMqtt(name: string, timeoutMs: number): Promise<void> {
  const probe = rig.devices[rig.devices.length - 1];
  if (!probe) throw new Error('no probe device');
  const client = await mqtt.connectAsync(rig.services.mosquitto.url, { reconnectPeriod: 0 });
  const sent: string[] = [];
  try {
    await waitFor(
      `an MQTT uplink (${name}) stored`,
      timeoutMs,
      async () => {
        const messageId = `${name}-${sent.length}`;
        sent.push(messageId);
        await client.publishAsync(
          `devices/${probe.uuid}/up`,
          JSON.stringify({ temperature: 1, message_id: messageId }),
          {
            qos: 1,
          },
        );
        await sleep(1000);
        const { rows } = await rig.db
          // device_data keeps a message id only as its hash (migration 0043).
          .query(
            'SELECT 1 FROM device_data WHERE message_hash IN (SELECT device_message_hash(x) FROM unnest($1::text[]) x)',
            [sent],
          )
          .catch(() => ({ rows: [] }));
        return rows.length > 0 ? true : undefined;
      },
      0,
    );
  } finally {
    await client.endAsync();
  }
}

/** `step`, failing with the apps' output. */
async function withOutputs<T>(step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    const lags = `lag: storage writer ${await rig.lag('storage-writer')}, rules worker ${await rig.lag('rules-worker')}`;
    throw new Error(`${(error as Error).message}; ${lags}\n${rig.outputs()}`);
  }
}

it('every app reconnects by itself when PostgreSQL, Redis, NATS and Mosquitto restart', async () => {
  const apps: RigApp[] = [
    await rig.start('ingest'),
    await rig.start('rules-worker'),
    await rig.start('notifier'),
  ];
  const ingestUrl = apps[0]?.ingestUrl ?? '';
  // The load leaves the last device to the MQTT probe.
  const load = startLoad(rig, () => [ingestUrl], rig.devices.slice(0, -1));
  await probeMqtt('mqtt-before', 30_000);

  for (const service of (process.env.FAULT_SERVICES?.split(',') ?? [
    'postgres',
    'redis',
    'nats',
    'mosquitto',
  ]) as ServiceName[]) {
    await waitForAcks(load, 150);
    const started = Date.now();
    await rig.services[service].restart();
    const up = Date.now();
    await waitFor(`an uplink acknowledged after ${service} restarted`, 60_000, async () =>
      load.firstAckAfter(up),
    );
    const acked = (load.firstAckAfter(up) ?? up) - started;
    // A mail of an uplink acknowledged after the restart: ingest, log, rules worker, queue, notifier.
    await withOutputs(
      waitFor(`a mail after ${service} restarted`, 90_000, async () => {
        const mails = mailCounts(rig.smtp);
        for (const [seq, at] of load.acknowledged) if (at > up && mails.has(seq)) return true;
        return undefined;
      }),
    );
    const mailed = Date.now() - started;
    await withOutputs(probeMqtt(`mqtt-after-${service}`, 60_000));
    console.log(
      `${service} restart: down ${up - started} ms; uplinks acknowledged ${acked} ms, mails again ${mailed} ms, MQTT uplinks stored ${Date.now() - started} ms after it stopped`,
    );
    for (const app of apps)
      expect({ app: app.name, exited: app.child.exitCode }).toEqual({ app: app.name, exited: null });
  }
  await waitForAcks(load, 100);
  await load.stop();

  const result = await account(rig, load);
  console.log(
    `service restarts: ${result.acknowledged} uplinks acknowledged, ${result.firings} firings, ${result.mails} mails`,
  );
  expect(result).toEqual(clean(result));
});
