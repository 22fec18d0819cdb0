/**
 * The demo fleet that runs inside the embedded platform, so the console is alive on first start: a few
 * demo devices send one uplink a minute each through the whole path (embedded MQTT broker with the
 * devices' own credentials, decoding, event log, storage writer, rules). In-process it holds the database
 * handle, so it issues the tokens directly instead of through the API.
 */
import { createHash, randomBytes } from 'node:crypto';
import { listDrivers } from '@iot/codecs';
import { type Db, listSimulatableDevices, setDeviceCredentialsHash } from '@iot/db';
import type { Logger, Service } from '@iot/runtime';
import type { SimDevice } from './build-uplink.js';
import { runSimulation } from './run-simulation.js';

export interface DemoFleetOptions {
  db: Db;
  log: Logger;
  /** Port of the embedded MQTT broker. */
  mqttPort: number;
  /**
   * How many devices send: the company's newest by id, so that `npm run simulate`, which takes the first
   * devices by id, does not reissue the same devices' tokens for moderate device counts.
   */
  devices: number;
  /** The company whose devices send; the demo client by default. */
  companyId?: number;
  /** Uplinks per device per minute. Default 1. */
  perDevicePerMinute?: number;
}

/**
 * Picks the devices whose uplinks ingest can decode (see `canSimulate`) and gives each a fresh token (its sha-256 in devices.credentials_hash, as the API
 * does). This replaces tokens issued earlier for these devices; the demo company is sample data.
 */
async function issueTokens(db: Db, companyId: number, count: number): Promise<SimDevice[]> {
  const rows = await listSimulatableDevices(
    db,
    companyId,
    count,
    listDrivers().map((d) => d.id),
  );
  const devices: SimDevice[] = [];
  for (const row of rows) {
    const token = randomBytes(32).toString('base64url');
    const hash = createHash('sha256').update(token).digest('hex');
    await setDeviceCredentialsHash(db, companyId, row.id, hash);
    devices.push({ ...row, token });
  }
  return devices;
}

export async function startDemoFleet(options: DemoFleetOptions): Promise<Service> {
  const log = options.log.child({ app: 'demo-fleet' });
  const fleet = await issueTokens(options.db, options.companyId ?? 2, options.devices);
  const controller = new AbortController();
  if (fleet.length === 0) {
    log.warn('no demo devices to simulate');
    return { name: 'demo-fleet', stop: async () => {} };
  }
  const perMinute = options.perDevicePerMinute ?? 1;
  const run = runSimulation({
    devices: fleet.length,
    fleet,
    rate: (fleet.length * perMinute) / 60,
    transport: 'mqtt',
    mqttUrl: `mqtt://127.0.0.1:${options.mqttPort}`,
    signal: controller.signal,
    progressEveryMs: 600_000,
    onProgress: (s) => log.debug({ sent: s.sent, accepted: s.accepted, refused: s.refused }, 'demo fleet'),
    onWarning: (message) => log.warn(message),
  }).catch((error: unknown) => {
    log.error({ err: error }, 'demo fleet stopped');
    return undefined;
  });
  log.info({ devices: fleet.length, perDevicePerMinute: perMinute }, 'demo fleet sending');
  return {
    name: 'demo-fleet',
    stop: async () => {
      controller.abort();
      await run;
    },
  };
}
