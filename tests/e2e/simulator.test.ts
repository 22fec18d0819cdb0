/**
 * The simulator end to end against the whole platform in this process (PGlite, embedded aedes broker,
 * in-process log, storage writer): it signs in like a person, issues device tokens through the API, sends
 * over MQTT and HTTP, and the uplinks land in device_data, device_current (latest values and last online).
 * Also: the platform's own demo fleet sends by default, and a demo fleet stops sending when stopped.
 */
import { createLogger } from '@iot/runtime';
import { runSimulation, startDemoFleet } from '@iot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';
import { waitFor } from '../support/wait-for.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let platform: TestPlatform;
/** When the platform was up: the seeded history ends before this, so later rows come from the demo fleet. */
let startedAt: Date;

beforeAll(async () => {
  platform = await startTestPlatform();
  startedAt = new Date();
}, 120_000);

afterAll(async () => {
  await platform?.stop();
}, 60_000);

async function rowsSince(deviceIds: number[], since: Date): Promise<Map<number, number>> {
  const { rows } = await platform.db.query<{ device_id: number; n: number }>(
    `SELECT device_id::int AS device_id, count(*)::int AS n FROM device_data
     WHERE device_id = ANY($1::bigint[]) AND created_at >= $2 GROUP BY device_id`,
    [deviceIds, since],
  );
  return new Map(rows.map((r) => [r.device_id, r.n]));
}

/** Devices without a driver (JSON senders), as a person creates them in the console. */
async function addJsonDevices(companyId: number, names: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const { rows } = await platform.db.query<{ id: number }>(
      'INSERT INTO devices (company_id, name) VALUES ($1, $2) RETURNING id::int AS id',
      [companyId, name],
    );
    if (rows[0]) ids.push(rows[0].id);
  }
  return ids;
}

describe('simulator against the in-process platform', () => {
  it('sends over MQTT and HTTP with tokens from the API; the uplinks are stored for those devices', async () => {
    const since = new Date(Date.now() - 1000);
    const progress: number[] = [];
    const stats = await runSimulation({
      devices: 6,
      rate: 30,
      url: platform.url,
      ingestUrl: new URL(platform.ingestUrl).origin,
      mqttUrl: `mqtt://127.0.0.1:${platform.mqttPort}`,
      transport: 'mixed',
      email: 'main@demo.test',
      password: 'DemoPass#2026',
      durationSeconds: 4,
      progressEveryMs: 1000,
      onProgress: (s) => progress.push(s.sent),
    });
    expect(stats.devices).toBe(6);
    expect(stats.refused).toBe(0);
    // 30/s for 4 s, give or take the first tick and the scheduling slack.
    expect(stats.sent).toBeGreaterThanOrEqual(100);
    expect(stats.accepted).toBe(stats.sent);
    expect(progress.length).toBeGreaterThanOrEqual(3);

    // The first six demo devices by id: tokens were issued for exactly these, through the API.
    const { rows: devices } = await platform.db.query<{ id: number; credentials_hash: string | null }>(
      `SELECT id::int AS id, credentials_hash FROM devices WHERE company_id = 2 AND state <> 'disposed'
       AND (driver_id IS NULL OR driver_id NOT LIKE 'lorawan\\_%') ORDER BY id LIMIT 6`,
    );
    const ids = devices.map((d) => d.id);
    expect(devices.every((d) => d.credentials_hash !== null)).toBe(true);

    const stored = await waitFor('all accepted uplinks stored', 15_000, async () => {
      const counts = await rowsSince(ids, since);
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return total >= stats.accepted ? counts : undefined;
    });
    // Every device sent (round robin), MQTT (even positions) and HTTP (odd positions) alike.
    for (const id of ids) expect(stored.get(id) ?? 0).toBeGreaterThanOrEqual(10);

    const { rows: status } = await platform.db.query<{ id: number; last_online_at: Date; updated_at: Date }>(
      `SELECT d.id::int AS id, c.last_online_at, c.updated_at FROM devices d
       JOIN device_current c ON c.device_id = d.id WHERE d.id = ANY($1::bigint[])`,
      [ids],
    );
    expect(status).toHaveLength(6);
    for (const row of status) {
      expect(new Date(row.last_online_at).getTime()).toBeGreaterThanOrEqual(since.getTime());
      expect(new Date(row.updated_at).getTime()).toBeGreaterThanOrEqual(since.getTime());
    }

    // Binary frames were decoded by the built-in drivers: the distance sensors' values are stored by name.
    const { rows: distance } = await platform.db.query<{ data: Record<string, number> }>(
      `SELECT c.data FROM device_current c JOIN devices d ON d.id = c.device_id
       WHERE d.id = ANY($1::bigint[]) AND d.driver_id = 'nbiot_distance_sensor'`,
      [ids],
    );
    expect(distance.length).toBeGreaterThan(0);
    for (const row of distance) {
      expect(row.data).toHaveProperty('distance');
      expect(row.data).toHaveProperty('fill_level');
    }
  }, 60_000);

  it('sends JSON for devices without a driver, stored under the demo generator field names', async () => {
    const since = new Date(Date.now() - 1000);
    const added = await addJsonDevices(3, ['Büro Klima', 'Leckage Heizraum']);
    const stats = await runSimulation({
      devices: 100,
      rate: 40,
      url: platform.url,
      ingestUrl: new URL(platform.ingestUrl).origin,
      mqttUrl: `mqtt://127.0.0.1:${platform.mqttPort}`,
      transport: 'mixed',
      email: 'main@other.test',
      password: 'DemoPass#2026',
      durationSeconds: 3,
    });
    expect(stats.refused).toBe(0);
    expect(stats.accepted).toBe(stats.sent);
    await waitFor('JSON uplinks stored', 15_000, async () => {
      const counts = await rowsSince(added, since);
      return counts.size === 2 ? counts : undefined;
    });
    const { rows } = await platform.db.query<{ name: string; data: Record<string, unknown> }>(
      `SELECT d.name, c.data FROM device_current c JOIN devices d ON d.id = c.device_id
       WHERE d.id = ANY($1::bigint[]) ORDER BY d.id`,
      [added],
    );
    expect(rows.map((r) => r.name)).toEqual(['Büro Klima', 'Leckage Heizraum']);
    expect(Object.keys(rows[0]?.data ?? {}).sort()).toEqual(['battery_level', 'humidity', 'temperature']);
    expect(Object.keys(rows[1]?.data ?? {}).sort()).toEqual(['battery_level', 'water_leak']);
  }, 60_000);

  it('the platform runs its demo fleet by default: the ten newest decodable demo devices send', async () => {
    const { rows } = await platform.db.query<{ id: number }>(
      `SELECT id::int AS id FROM devices WHERE company_id = 2 AND state <> 'disposed'
       AND (driver_id IS NULL OR driver_id NOT LIKE 'lorawan\\_%') ORDER BY id DESC LIMIT 10`,
    );
    expect(rows).toHaveLength(10);
    const ids = rows.map((r) => r.id);
    // One uplink per device per minute, spread evenly: one every 6 s across the ten.
    const counts = await waitFor('demo fleet uplinks', 30_000, async () => {
      const c = await rowsSince(ids, startedAt);
      return c.size >= 2 ? c : undefined;
    });
    expect(counts.size).toBeGreaterThanOrEqual(2);
  }, 40_000);

  it('a demo fleet stops sending when its service stops', async () => {
    const log = createLogger({ level: 'warn' });
    // Two new devices of the water association, one uplink per device per second so the test need not wait long.
    const ids = await addJsonDevices(4, ['Wasserzähler Brunnen 1', 'Tür Lager']);
    const fleet = await startDemoFleet({
      db: platform.db,
      log,
      mqttPort: platform.mqttPort,
      devices: 2,
      companyId: 4,
      perDevicePerMinute: 60,
    });
    expect(fleet.name).toBe('demo-fleet');
    const since = new Date(Date.now() - 1000);
    await waitFor('water association fleet uplinks', 15_000, async () => {
      const c = await rowsSince(ids, since);
      return [...c.values()].reduce((a, b) => a + b, 0) >= 3 ? c : undefined;
    });
    await fleet.stop();
    await sleep(500); // the writer's last batch
    const after = await rowsSince(ids, since);
    await sleep(3000);
    expect(await rowsSince(ids, since)).toEqual(after);
  }, 40_000);
});
