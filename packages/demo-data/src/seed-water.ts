/**
 * The water association of the demo (issue #26): Wasserverband Dreisamtal with the demo client (an admin
 * member) and a second farm as members, an open request from the other client, the permit and the
 * members' allowances, and two shared well meters with a year of readings every two hours. The demo
 * client's meter was swapped half a year ago (its counter restarts at zero), and its allowance is set so
 * that it stands at 85 % of it this water year; the second farm is near 50 %.
 */
import type { Queryable } from '@iot/db';
import { usageSteps, waterYear } from '@iot/domain';
import { DEMO_COMPANIES } from './demo-accounts.js';
import { round, seededRandom } from './random.js';
import { insertId, MAP_CENTRE } from './seed-rows.js';

const TIME_ZONE = 'Europe/Berlin';
const STEP_MS = 2 * 3_600_000;
const DAY_MS = 86_400_000;
export const DEMO_SECOND_FARM = 'Obsthof Kirchzarten GbR';

interface Reading {
  at: Date;
  value: number;
}

/**
 * A year of a well meter: irrigation from April to September, mostly in the morning and evening. With
 * `swapAt`, the meter is replaced then and its counter starts again at zero.
 */
function meterYear(now: Date, scale: number, start: number, seed: number, swapAt?: number): Reading[] {
  const rnd = seededRandom(seed);
  const out: Reading[] = [];
  let counter = start;
  for (let t = now.getTime() - 365 * DAY_MS; t <= now.getTime(); t += STEP_MS) {
    const at = new Date(t);
    const month = at.getUTCMonth();
    const hour = at.getUTCHours();
    const season = month >= 3 && month <= 8 ? 1 : 0.15;
    const daytime = hour >= 4 && hour <= 8 ? 1 : hour >= 17 && hour <= 21 ? 0.8 : 0.1;
    counter += round(scale * season * daytime * (0.6 + rnd() * 0.8), 2);
    if (swapAt !== undefined && t <= swapAt && swapAt < t + STEP_MS) counter = round(rnd() * 2, 2);
    out.push({ at, value: round(counter, 2) });
  }
  return out;
}

function usedThisYear(readings: Reading[], now: Date): number {
  const year = waterYear(now, 1, TIME_ZONE);
  const inYear = readings.filter((r) => r.at >= year.start);
  return usageSteps(inYear, { meterFactor: 1, unit: 'm3' }).reduce((sum, s) => sum + s.volume, 0);
}

async function insertMeter(tx: Queryable, companyId: number, name: string, serial: string, offset: number) {
  return insertId(
    tx,
    `INSERT INTO devices (company_id, name, description, serial_number, latitude, longitude, location, state,
                          target_server, device_details)
     VALUES ($1, $2, 'Demo water meter', $3, $4, $5, 'water meter', 'ok', 'production', $6) RETURNING id`,
    [
      companyId,
      name,
      serial,
      round(MAP_CENTRE.latitude + offset, 6),
      round(MAP_CENTRE.longitude - offset, 6),
      { data_fields: ['counter_1'] },
    ],
  );
}

async function insertReadings(tx: Queryable, companyId: number, deviceId: number, readings: Reading[]) {
  // Set-based (migration 0043): the device_data view writes row by row.
  await tx.query(
    `SELECT device_data_store(jsonb_agg(x)) FROM (
     SELECT $1::bigint AS device_id, $2::bigint AS company_id, p.at AS created_at,
            jsonb_build_object('counter_1', p.value) AS data
       FROM jsonb_to_recordset($3::jsonb) AS p(at timestamptz, value float8)) x`,
    [deviceId, companyId, JSON.stringify(readings)],
  );
  const last = readings.at(-1)!;
  await tx.query(
    `INSERT INTO device_current (device_id, company_id, data, field_times, updated_at, last_online_at, is_active)
     VALUES ($1, $2, $3, $4, $5, $5, true)`,
    [deviceId, companyId, { counter_1: last.value }, { counter_1: last.at.toISOString() }, last.at],
  );
}

/**
 * `sharedValveId`: an irrigation valve of the demo client, shared with control, so the association and its
 * admin members can switch it (and close it when the client reaches its yearly allowance).
 */
export async function seedWaterAssociation(
  tx: Queryable,
  now: Date,
  sharedValveId?: number,
): Promise<{ devices: number; dataPoints: number }> {
  const nwa = DEMO_COMPANIES.waterAssociation.id;
  const demo = DEMO_COMPANIES.demo.id;
  const farm = await insertId(
    tx,
    `INSERT INTO companies (name, street, street_number, zip, city, email, modules, latitude, longitude)
     VALUES ($1, 'Dreisamstraße', '12', '79199', 'Kirchzarten', 'office@obsthof.demo.test', '{water_association}', $2, $3)
     RETURNING id`,
    [DEMO_SECOND_FARM, MAP_CENTRE.latitude + 0.02, MAP_CENTRE.longitude + 0.03],
  );
  await tx.query(
    `INSERT INTO nwa_members (nwa_company_id, company_id, is_admin) VALUES ($1, $2, true), ($1, $3, false)`,
    [nwa, demo, farm],
  );
  const demoReadings = meterYear(now, 4.5, 18_240, 7, now.getTime() - 180 * DAY_MS);
  const farmReadings = meterYear(now, 2.2, 5_310, 11);
  const meters = [
    {
      owner: demo,
      name: 'Wasserzähler Brunnen Dreisam',
      serial: 'NWA-DEMO-1',
      readings: demoReadings,
      share: 0.85,
    },
    { owner: farm, name: 'Wasserzähler Obsthof', serial: 'NWA-FARM-1', readings: farmReadings, share: 0.5 },
  ];
  let permit = 0;
  for (const [i, m] of meters.entries()) {
    const id = await insertMeter(tx, m.owner, m.name, m.serial, 0.01 * (i + 1));
    await insertReadings(tx, m.owner, id, m.readings);
    await tx.query(
      `INSERT INTO nwa_shared_devices (nwa_company_id, company_id, device_id, access, counts_against_company_id)
       VALUES ($1, $2, $3, 'read', $2)`,
      [nwa, m.owner, id],
    );
    const allowance = Math.max(100, Math.round(usedThisYear(m.readings, now) / m.share));
    permit += allowance;
    await tx.query(
      `INSERT INTO nwa_max_flow_rates (nwa_company_id, company_id, max_per_hour, max_per_year, valid_from)
       VALUES ($1, $2, 12, $3, $4)`,
      [nwa, m.owner, allowance, new Date(now.getTime() - 365 * DAY_MS).toISOString().slice(0, 10)],
    );
  }
  if (sharedValveId !== undefined) {
    await tx.query(
      `INSERT INTO nwa_shared_devices (nwa_company_id, company_id, device_id, access, counts_against_company_id)
       VALUES ($1, $2, $3, 'control', $2)`,
      [nwa, demo, sharedValveId],
    );
  }
  await tx.query(
    `INSERT INTO nwa_settings (nwa_company_id, max_flow_per_hour, max_volume_per_year, water_year_start_month, time_zone)
     VALUES ($1, 30, $2, 1, $3)`,
    [nwa, Math.ceil((permit * 1.2) / 1000) * 1000, TIME_ZONE],
  );
  // The other client asks to join: the association's menu shows one open request.
  await tx.query('INSERT INTO nwa_membership_requests (nwa_company_id, company_id) VALUES ($1, $2)', [
    nwa,
    DEMO_COMPANIES.other.id,
  ]);
  return { devices: meters.length, dataPoints: demoReadings.length + farmReadings.length };
}
