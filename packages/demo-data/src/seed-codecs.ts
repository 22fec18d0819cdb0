/**
 * Issue 23 in the demo: a customer codec (TS013, written like Milesight's EM320-TH decoder) assigned to a
 * LoRaWAN device with a day of data as that codec decodes it, and a virtual device whose field is the
 * mean of the soil sensors' humidity, computed by the rules worker whenever one of them reports.
 */
import type { Queryable } from '@iot/db';
import { insertId, MAP_CENTRE, type SeededDevice } from './seed-rows.js';

export const DEMO_CODEC_NAME = 'Milesight EM320-TH';
export const DEMO_CODEC_DEVICE_NAME = 'Lager EM320-TH';
export const DEMO_VIRTUAL_DEVICE_NAME = 'Bodenfeuchte Mittel';

// Channel/type pairs as the vendor's codec reads them: 01 75 battery, 03 67 temperature (0.1 °C, LE),
// 04 68 humidity (0.5 %). The read pointer lives at the top level, as in many vendor codecs.
export const DEMO_CODEC_SCRIPT = `var i = 0;
function u8(bytes) { return bytes[i++]; }
function decodeUplink(input) {
  var bytes = input.bytes, data = {};
  while (i < bytes.length) {
    var channel = u8(bytes), type = u8(bytes);
    if (channel === 0x01 && type === 0x75) data.battery = u8(bytes);
    else if (channel === 0x03 && type === 0x67) { var t = u8(bytes) | (u8(bytes) << 8); data.temperature = (t > 0x7fff ? t - 0x10000 : t) / 10; }
    else if (channel === 0x04 && type === 0x68) data.humidity = u8(bytes) / 2;
    else return { errors: ['unknown channel ' + channel] };
  }
  return { data: data };
}
function encodeDownlink(input) {
  if (input.data.interval_minutes === undefined) return { errors: ['interval_minutes is required'] };
  var s = input.data.interval_minutes * 60;
  return { bytes: [0xff, 0x03, s & 0xff, (s >> 8) & 0xff], fPort: 85 };
}
`;

/** Seeds the codec, its device with history, and the virtual device; the devices and data points added. */
export async function seedCodecsAndVirtualDevice(
  tx: Queryable,
  companyId: number,
  devices: readonly SeededDevice[],
  now: Date,
): Promise<{ devices: number; dataPoints: number }> {
  const codecId = await insertId(
    tx,
    `INSERT INTO codecs (company_id, name, script, functions) VALUES ($1, $2, $3, '{decodeUplink,encodeDownlink}') RETURNING id`,
    [companyId, DEMO_CODEC_NAME, DEMO_CODEC_SCRIPT],
  );
  const deviceId = await insertId(
    tx,
    `INSERT INTO devices (company_id, name, description, codec_id, dev_eui, serial_number, latitude, longitude,
                          location, state, target_server, device_details)
     VALUES ($1, $2, 'Decoded by a customer codec', $3, $4, $5, $6, $7, 'Lager', 'ok', 'production',
             '{"data_fields":["temperature","humidity","battery"]}') RETURNING id`,
    [
      companyId,
      DEMO_CODEC_DEVICE_NAME,
      codecId,
      `24e124136b3${companyId}0320`.slice(0, 16),
      `EM320-${companyId}`,
      MAP_CENTRE.latitude + 0.004,
      MAP_CENTRE.longitude - 0.006,
    ],
  );
  // Set-based (migration 0043): the device_data view writes row by row.
  const { rows: stored } = await tx.query<{ n: number }>(
    `SELECT coalesce(device_data_store(jsonb_agg(x)), 0) AS n FROM (
     SELECT $1::bigint AS device_id, $2::bigint AS company_id, t AS created_at,
            jsonb_build_object('temperature', round((6 + 1.5 * sin(extract(epoch FROM t) / 7200))::numeric, 1),
                               'humidity', round((62 + 4 * cos(extract(epoch FROM t) / 5400))::numeric * 2) / 2,
                               'battery', 92) AS data, 'demo-' || extract(epoch FROM t)::bigint AS message_id
       FROM generate_series($3::timestamptz - interval '72 hours', $3::timestamptz, interval '20 minutes') AS t) x`,
    [deviceId, companyId, now],
  );
  const rowCount = stored[0]?.n ?? 0;
  await tx.query(
    `INSERT INTO device_current (device_id, company_id, data, updated_at, is_active, last_online_at, battery_level)
     SELECT device_id, company_id, data, created_at, true, created_at, 92 FROM device_data
      WHERE device_id = $1 ORDER BY created_at DESC LIMIT 1`,
    [deviceId],
  );

  const soil = devices.filter((d) => d.kind.kind === 'soil_moisture').slice(0, 2);
  if (soil.length < 2) return { devices: 1, dataPoints: rowCount };
  const formula = `(d${soil[0]!.id}.soil_humidity + d${soil[1]!.id}.soil_humidity) / 2`;
  const virtualId = await insertId(
    tx,
    `INSERT INTO devices (company_id, name, description, device_type, virtual_fields)
     VALUES ($1, $2, $3, 'virtual', $4::jsonb) RETURNING id`,
    [
      companyId,
      DEMO_VIRTUAL_DEVICE_NAME,
      `Mittelwert: ${formula}`,
      JSON.stringify([{ key: 'soil_humidity', formula }]),
    ],
  );
  await tx.query(
    `INSERT INTO virtual_device_inputs (company_id, virtual_device_id, input_device_id) VALUES ($1, $2, $3), ($1, $2, $4)`,
    [companyId, virtualId, soil[0]!.id, soil[1]!.id],
  );
  // Its history as the rules worker would have computed it: at each point of the first input, with the
  // second input's latest value at that time.
  const history = await tx.query<{ n: number }>(
    `SELECT coalesce(device_data_store(jsonb_agg(x)), 0) AS n FROM (
     SELECT $1::bigint AS device_id, $2::bigint AS company_id, a.created_at,
            jsonb_build_object('soil_humidity',
              round(((a.data->>'soil_humidity')::numeric + (b.data->>'soil_humidity')::numeric) / 2, 1)) AS data,
            'virtual:' || $3::bigint::text || ':' || extract(epoch FROM a.created_at)::bigint::text AS message_id
       FROM device_data a
       CROSS JOIN LATERAL (SELECT data FROM device_data b WHERE b.device_id = $4::bigint AND b.created_at <= a.created_at
                            ORDER BY b.created_at DESC LIMIT 1) b
      WHERE a.device_id = $3::bigint) x`,
    [virtualId, companyId, soil[0]!.id, soil[1]!.id],
  );
  // Its latest value from the inputs' latest values; the next uplink of either input computes it anew.
  await tx.query(
    `INSERT INTO device_current (device_id, company_id, data, updated_at, is_active, last_online_at)
     SELECT $1, $2, jsonb_build_object('soil_humidity', round(avg((data->>'soil_humidity')::numeric), 1)), max(updated_at), true, max(updated_at)
       FROM device_current WHERE device_id = ANY($3::bigint[]) HAVING count(*) = 2`,
    [virtualId, companyId, [soil[0]!.id, soil[1]!.id]],
  );
  return { devices: 2, dataPoints: rowCount + (history.rows[0]?.n ?? 0) };
}
