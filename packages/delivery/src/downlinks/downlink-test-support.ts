/** Rows and helpers the downlink tests share: a company with a device, the device's downlinks. Tests only. */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '@iot/db';
import type { TestDb } from '@iot/db/testing';
import { type DownlinkDevice, loadDownlinkDevice, sendDownlink } from './send-downlink';

export const MOSQUITTO = 'mqtt://127.0.0.1:1883';

export function randomDevEui(): string {
  return randomUUID().replace(/-/g, '').slice(0, 16);
}

/** Polls until `check` holds (default 10 s). */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A company (Europe/Berlin) with one device of `driverId`. */
async function createCompanyDevice(q: Queryable, driverId: string | null) {
  const company = await q.query<{ id: number }>(
    `INSERT INTO companies (name, timezone) VALUES ($1, 'Europe/Berlin') RETURNING id`,
    [`Company ${randomUUID().slice(0, 8)}`],
  );
  const companyId = company.rows[0]!.id;
  const device = await q.query<{ id: number }>(
    `INSERT INTO devices (company_id, name, uuid, driver_id) VALUES ($1, $2, $3, $4) RETURNING id`,
    [companyId, 'Tank 7', randomUUID(), driverId],
  );
  return { companyId, deviceId: device.rows[0]!.id };
}

/** Helpers on the suite's database (`db()` is read when a helper runs, after beforeAll made it). */
export function downlinkHelpers(db: () => TestDb) {
  async function device(driverId: string | null, devEui: string | null = null): Promise<DownlinkDevice> {
    const fixture = await createCompanyDevice(db(), driverId);
    if (devEui) await db().query('UPDATE devices SET dev_eui = $2 WHERE id = $1', [fixture.deviceId, devEui]);
    const loaded = await loadDownlinkDevice(db(), fixture.companyId, fixture.deviceId);
    return loaded!;
  }

  /** The error a reboot command to `target` fails with (over no MQTT transport). */
  function rebootFailure(
    target: DownlinkDevice,
    options: { allowPrivateTargets?: boolean } = {},
  ): Promise<unknown> {
    return sendDownlink({
      db: db(),
      device: target,
      command: 'reboot',
      params: {},
      publish: undefined,
      ...options,
    }).catch((e: unknown) => e);
  }

  async function rowsOf(deviceId: number) {
    const { rows } = await db().query<{
      command: string;
      state: string;
      encoded: Uint8Array | null;
      fport: number;
      error: string | null;
      attempts: number;
      sent_at: Date | null;
    }>(
      'SELECT command, state, encoded, fport, error, attempts, sent_at FROM downlinks WHERE device_id = $1 ORDER BY id',
      [deviceId],
    );
    return rows.map((r) => ({ ...r, encoded: r.encoded ? Buffer.from(r.encoded).toString('hex') : null }));
  }

  async function referenceOf(deviceId: number) {
    const { rows } = await db().query<{ reference: string | null }>(
      'SELECT reference FROM downlinks WHERE device_id = $1',
      [deviceId],
    );
    return rows.map((r) => r.reference);
  }

  return { device, rebootFailure, rowsOf, referenceOf };
}
