/**
 * The 10k company's fleet reporting while the dashboards load: each second, the latest values of the next
 * FLEET_PER_SECOND of its online devices, written by the storage writer's own statement
 * (upsertDeviceStateRows). As in production, the database announces each write to the company's device
 * lists (migration 0042), which the API drops at most once per DEVICE_LIST_REFRESH_MS; the map's pins by
 * state are not announced (0044). Offline devices stay silent, as offline devices do.
 */
import { type Db, type DeviceCurrentRow, upsertDeviceStateRows } from '@iot/db';
import { FLEET_PER_SECOND } from './settings.js';

export interface Fleet {
  /** Latest-values writes so far. */
  readonly written: number;
  stop(): Promise<void>;
}

export async function startFleet(db: Db, companyId: number): Promise<Fleet> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT d.id::int AS id FROM devices d JOIN device_current c ON c.device_id = d.id
      WHERE d.company_id = $1 AND c.is_active ORDER BY d.id`,
    [companyId],
  );
  const online = rows.map((r) => r.id);
  let next = 0;
  let written = 0;
  let round: Promise<void> = Promise.resolve();
  const report = async () => {
    const at = new Date().toISOString();
    const batch: DeviceCurrentRow[] = [];
    for (let i = 0; i < FLEET_PER_SECOND && online.length > 0; i++) {
      const deviceId = online[next++ % online.length]!;
      batch.push({
        device_id: deviceId,
        company_id: companyId,
        data: { temperature: 10 + (next % 20), humidity: 40 + (next % 50) },
        field_times: { temperature: at, humidity: at },
        latitude: null,
        longitude: null,
        updated_at: at,
      });
    }
    await upsertDeviceStateRows(db, batch);
    written += batch.length;
  };
  const timer = setInterval(() => {
    // One write at a time: a slow second is not overtaken by the next.
    round = round.then(report).catch((error: unknown) => console.error('fleet: write failed', error));
  }, 1000);
  return {
    get written() {
      return written;
    },
    async stop() {
      clearInterval(timer);
      await round;
    },
  };
}
