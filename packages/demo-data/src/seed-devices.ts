/** The demo devices of one company, and each device's generated history and latest values. */
import type { Queryable } from '@iot/db';
import type { DemoDeviceKind, Reading } from './demo-fleet.js';
import { round, seededRandom } from './random.js';
import { insertId, MAP_CENTRE, type SeededDevice } from './seed-rows.js';

export async function seedDevices(
  tx: Queryable,
  companyId: number,
  fleet: DemoDeviceKind[],
  rnd: () => number,
  serialPrefix: string,
): Promise<SeededDevice[]> {
  const devices: SeededDevice[] = [];
  let n = 0;
  for (const kind of fleet) {
    for (const [index, name] of kind.names.entries()) {
      n += 1;
      const serial = `${serialPrefix}-${String(n).padStart(4, '0')}`;
      const lorawan = !kind.mqtt && (kind.deviceType === null || kind.deviceType.startsWith('srd_'));
      const devEui = lorawan ? `70b3d57ed00${companyId}${String(n).padStart(4, '0')}`.slice(0, 16) : null;
      const id = await insertId(
        tx,
        `INSERT INTO devices (company_id, name, description, device_type, driver_id, serial_number, dev_eui,
                              latitude, longitude, location, state, target_server, sensor_type,
                              mains_powered, device_details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'ok', 'production', $11, $12, $13)
         RETURNING id`,
        [
          companyId,
          name,
          `Demo ${kind.kind.replace(/_/g, ' ')}`,
          kind.deviceType,
          // Devices of the spec's types decode with their built-in driver; the others send JSON data fields,
          // which ingest takes as they are when a device has no driver.
          kind.deviceType,
          serial,
          devEui,
          round(MAP_CENTRE.latitude + (rnd() - 0.5) * 0.06, 6),
          round(MAP_CENTRE.longitude + (rnd() - 0.5) * 0.09, 6),
          `${kind.kind.replace(/_/g, ' ')} ${index + 1}`,
          kind.sensorType ?? null,
          kind.kind === 'gateway' || kind.kind === 'energy_meter',
          { data_fields: Object.keys(kind.reading(0, seededRandom(1), index)) },
        ],
      );
      devices.push({ id, kind, index });
    }
  }
  return devices;
}

/** Writes the history of one device in one statement and sets its latest values and status columns. */
export async function seedHistory(
  tx: Queryable,
  companyId: number,
  device: SeededDevice,
  rnd: () => number,
  now: Date,
  days: number,
  offline: boolean,
): Promise<number> {
  const stepMs = device.kind.intervalMinutes * 60_000;
  // Offline devices fell silent a day and a half ago: stale (over 8 hours) and is_active false.
  const end = offline ? now.getTime() - 36 * 3_600_000 : now.getTime();
  const start = now.getTime() - days * 86_400_000;
  const points: Array<{ created_at: string; data: Reading; lat: number | null; lng: number | null }> = [];
  for (let t = start + Math.floor(rnd() * stepMs); t <= end; t += stepMs) {
    const hour = (t - start) / 3_600_000;
    const data = device.kind.reading(hour, rnd, device.index);
    const lat = typeof data.latitude === 'number' ? data.latitude : null;
    const lng = typeof data.longitude === 'number' ? data.longitude : null;
    points.push({ created_at: new Date(t).toISOString(), data, lat, lng });
  }
  // Set-based (migration 0043): the device_data view writes row by row.
  await tx.query(
    `SELECT device_data_store(jsonb_agg(x)) FROM (
     SELECT $1::bigint AS device_id, $2::bigint AS company_id, p.created_at, p.data, p.lat AS latitude,
            p.lng AS longitude
     FROM jsonb_to_recordset($3::jsonb) AS p(created_at timestamptz, data jsonb, lat float8, lng float8)) x`,
    [device.id, companyId, JSON.stringify(points)],
  );
  const last = points.at(-1);
  if (!last) return 0;
  const fieldTimes = Object.fromEntries(Object.keys(last.data).map((f) => [f, last.created_at]));
  const battery = typeof last.data.battery_level === 'number' ? last.data.battery_level : null;
  await tx.query(
    `INSERT INTO device_current (device_id, company_id, data, field_times, latitude, longitude, updated_at,
                                 last_online_at, battery_level, signal_strength, rssi, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10, $11)`,
    [
      device.id,
      companyId,
      last.data,
      fieldTimes,
      last.lat,
      last.lng,
      last.created_at,
      battery,
      2 + Math.floor(rnd() * 4),
      -70 - Math.floor(rnd() * 40),
      !offline,
    ],
  );
  return points.length;
}
