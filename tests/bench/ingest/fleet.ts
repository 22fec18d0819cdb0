/** The bench's devices and the baseline: batched inserts of the same rows straight into the database. */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Db, DeviceSeriesCache, insertDeviceDataRows, type SeriesFields } from '@iot/db';
import { buildUplink, profileOf, type SimDevice } from '@iot/simulator';
import { settleStatistics } from '../lib/statistics.js';

// --------------------------------------------------------------------------------------------- devices
export type BenchDevice = SimDevice;

/** Devices without a driver (JSON uplinks with their own message id), tokens set, created in one statement. */
export async function createDevices(
  db: Db,
  n: number,
): Promise<{ companyId: number; devices: BenchDevice[] }> {
  const { rows: c } = await db.query<{ id: number }>(
    "INSERT INTO companies (name) VALUES ('Bench ' || md5(random()::text)) RETURNING id::int AS id",
  );
  const companyId = c[0]?.id;
  if (companyId === undefined) throw new Error('no company');
  const uuids = Array.from({ length: n }, () => randomUUID());
  const tokens = new Map<string, string>(uuids.map((u) => [u, randomBytes(16).toString('hex')]));
  const hashes = uuids.map((u) =>
    createHash('sha256')
      .update(tokens.get(u) ?? '')
      .digest('hex'),
  );
  const { rows } = await db.query<{ id: number; uuid: string; name: string }>(
    `INSERT INTO devices (company_id, name, uuid, credentials_hash)
     SELECT $1, 'bench ' || t.i, t.u::uuid, t.h FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(u, h, i)
     RETURNING id::int AS id, uuid::text AS uuid, name`,
    [companyId, uuids, hashes],
  );
  await settleStatistics(db);
  return {
    companyId,
    devices: rows.map((r) => ({ ...r, token: tokens.get(r.uuid) ?? '', device_type: null, driver_id: null })),
  };
}

// -------------------------------------------------------------------------------------------- baseline
/**
 * Batched inserts of the same kind of rows straight into the database by the storage writer's data
 * statement alone (insertDeviceDataRows with its cache of field lists, as the writer calls it; migration
 * 0043), 1000 per batch,
 * for `seconds`.
 */
export async function baseline(db: Db, companyId: number, devices: BenchDevice[], seconds: number) {
  const start = performance.now();
  const past = Date.now() - 30 * 86_400_000;
  let rows = 0;
  const cache = new DeviceSeriesCache();
  const state = { clicks: 0, startedAt: Date.now(), rnd: Math.random };
  while (performance.now() - start < seconds * 1000) {
    const batch = [];
    for (let i = 0; i < 1000; i++) {
      const device = devices[(rows + i) % devices.length] as BenchDevice;
      const uplink = buildUplink(device, profileOf(device, (rows + i) % devices.length), state, Date.now());
      batch.push({
        device_id: device.id,
        company_id: companyId,
        created_at: new Date(past + rows + i).toISOString(),
        data: uplink.reading,
        latitude: null,
        longitude: null,
        metalabel: null,
        fcnt: null,
        message_id: uplink.messageId,
      });
    }
    // Autocommit: the lists read are committed once the call returns (the writer remembers after commit).
    const learned = new Map<string, SeriesFields>();
    await insertDeviceDataRows(db, batch, { cache, learned });
    cache.remember(learned);
    rows += batch.length;
  }
  const ms = performance.now() - start;
  return { rows, perSecond: (rows / ms) * 1000 };
}
