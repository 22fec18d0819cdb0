import { forEachDb } from '@iot/db/testing';
import { validatePhoneNumber } from '@iot/domain';
import { verify } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { DEMO_COMPANIES, DEMO_LOGINS, DEMO_PASSWORD } from './demo-accounts.js';
import {
  COLD_ROOM_ALERT_EMAIL,
  COLD_ROOM_ALERT_PHONE,
  COLD_ROOM_COOLING_NAME,
  COLD_ROOM_NAME,
} from './demo-cold-room.js';
import { DEMO_FLEET } from './demo-fleet.js';
import { seedDemoData } from './seed-demo-data.js';

const now = new Date('2026-11-21T12:00:00Z');
describe('seedDemoData', () => {
  forEachDb((suite) => {
    const count = async (sql: string, params: unknown[] = []) =>
      Number(
        (await suite.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]?.n,
      );

    it('writes the demo companies, logins and fleet once', async () => {
      const first = await seedDemoData(suite.db, { now });
      expect(first.seeded).toBe(true);
      expect(first.devices).toBeGreaterThanOrEqual(45);
      // About fifty, plus the FIX car park's twelve bay sensors (#25), the second farm's meters (#26), the
      // codec device and the virtual device (#23).
      expect(first.devices).toBeLessThanOrEqual(70);

      const again = await seedDemoData(suite.db, { now });
      expect(again.seeded).toBe(false);
      expect(await count('devices')).toBe(first.devices);
      expect(await count('device_data')).toBe(first.dataPoints);
    });

    it('makes company 1 the super admin company and the others clients', async () => {
      const { rows } = await suite.db.query<{ id: number; name: string; is_nwa: boolean; modules: string[] }>(
        'SELECT id, name, is_nwa, modules FROM companies ORDER BY id',
      );
      // 1 to 4 fixed; 5 is the water association's second farm (seed-water.ts).
      expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
      expect(rows[0]?.name).toBe(DEMO_COMPANIES.superAdmin.name);
      expect(rows[1]?.modules).toEqual(
        expect.arrayContaining(['farming', 'parking', 'water_association', 'external_api', 'paid_messaging']),
      );
      expect(rows[3]?.is_nwa).toBe(true);
      // New companies continue after the fixed ids.
      const next = await suite.db.query<{ id: number }>(
        `INSERT INTO companies (name) VALUES ('Next') RETURNING id`,
      );
      // (the water association's second farm took the first free id, seed-water.ts)
      expect(next.rows[0]?.id).toBeGreaterThan(4);
      await suite.db.query('DELETE FROM companies WHERE id = $1', [next.rows[0]?.id]);
    });

    it('creates every README demo login with the demo password', async () => {
      for (const email of ['admin@demo.test', 'main@demo.test', 'user@demo.test', 'main@other.test']) {
        const { rows } = await suite.db.query<{ company_id: number; password_hash: string; roles: string[] }>(
          'SELECT company_id, password_hash, roles FROM users WHERE email = $1',
          [email],
        );
        const login = DEMO_LOGINS.find((l) => l.email === email);
        expect(rows[0]?.company_id).toBe(login?.companyId);
        expect(rows[0]?.roles).toEqual(login?.roles);
        expect(await verify(rows[0]?.password_hash ?? '', DEMO_PASSWORD)).toBe(true);
      }
      const demoRoles = DEMO_LOGINS.filter((l) => l.companyId === DEMO_COMPANIES.demo.id).map((l) => l.roles);
      expect(demoRoles).toEqual(expect.arrayContaining([['ROLE_MAINUSER'], ['ROLE_ADMIN'], []]));
    });

    it('covers every device kind of the spec and every spec device type in the demo client', async () => {
      const kinds = [
        'gateway',
        'distance',
        'temperature_humidity',
        'parking',
        'ai_parking',
        'button',
        'energy_meter',
        'soil_moisture',
        'leak',
        'tracker',
        'leaf_moisture',
        'motion',
        'frost',
        'weather_station',
        'water_meter',
        'valve',
        'door',
        'sound',
        'cold_room', // the alarm walkthrough (demo-cold-room.ts)
        'cooling_controller', // switched by the cold room's rule
      ];
      expect(new Set(DEMO_FLEET.map((k) => k.kind))).toEqual(new Set(kinds));
      const { rows } = await suite.db.query<{ device_type: string }>(
        'SELECT DISTINCT device_type FROM devices WHERE company_id = $1 AND device_type IS NOT NULL',
        [DEMO_COMPANIES.demo.id],
      );
      expect(rows.map((r) => r.device_type).sort()).toEqual([
        'nbiot_button',
        'nbiot_distance_sensor',
        'nbiot_frost_sensor',
        'nbiot_soil_sensor',
        'nbiot_weatherstation',
        'srd_button',
        'srd_gateway',
        'virtual', // the virtual device of seed-codecs.ts (issue 23)
      ]);
      const parking = await suite.db.query<{ sensor_type: number }>(
        'SELECT DISTINCT sensor_type FROM devices WHERE sensor_type IS NOT NULL ORDER BY 1',
      );
      expect(parking.rows.map((r) => r.sensor_type)).toEqual([8, 1024]);
    });

    it('gives every device three days of history ending near now, and its latest values', async () => {
      const { rows } = await suite.db.query<{
        id: number;
        first: Date;
        last: Date;
        points: number;
        current: number;
      }>(
        `SELECT d.id, min(dd.created_at) AS first, max(dd.created_at) AS last, count(*)::int AS points,
              (SELECT count(*)::int FROM device_current c WHERE c.device_id = d.id) AS current
       FROM devices d JOIN device_data dd ON dd.device_id = d.id GROUP BY d.id`,
      );
      expect(rows).toHaveLength(await count('devices'));
      for (const row of rows) {
        expect(now.getTime() - row.first.getTime()).toBeGreaterThan(3 * 86_400_000 - 4 * 3_600_000); // first uplink within the longest interval (4 h);
        expect(row.last.getTime()).toBeLessThanOrEqual(now.getTime());
        expect(row.current).toBe(1);
      }
      // A few devices went silent: offline and stale (last online over 8 hours ago).
      const offline = await count(
        `devices d JOIN device_current c ON c.device_id = d.id WHERE NOT c.is_active AND c.last_online_at < $1`,
        [new Date(now.getTime() - 8 * 3_600_000)],
      );
      expect(offline).toBeGreaterThanOrEqual(2);
    });

    it('keeps every row of a company inside that company', async () => {
      const crossing = await count(
        `device_data dd JOIN devices d ON d.id = dd.device_id WHERE d.company_id <> dd.company_id`,
      );
      expect(crossing).toBe(0);
      expect(await count('devices WHERE company_id = $1', [DEMO_COMPANIES.other.id])).toBeGreaterThan(0);
      expect(await count('devices WHERE company_id = $1', [DEMO_COMPANIES.superAdmin.id])).toBe(0);
    });

    it('adds groups, a dashboard with all three widget types, fields with parcels and parking areas', async () => {
      const demo = DEMO_COMPANIES.demo.id;
      expect(await count('groups WHERE company_id = $1', [demo])).toBeGreaterThanOrEqual(4);
      const widgetTypes = await suite.db.query<{ type: string }>(
        'SELECT DISTINCT type FROM dashboard_widgets WHERE company_id = $1 ORDER BY type',
        [demo],
      );
      expect(widgetTypes.rows.map((r) => r.type)).toEqual(['line_chart', 'map', 'table']);
      const fields = await suite.db.query<{ size_m2: number; parcel_sum: number }>(
        `SELECT f.size_m2, (SELECT sum(size_m2) FROM parcels p WHERE p.field_id = f.id) AS parcel_sum
       FROM farming_fields f WHERE f.company_id = $1`,
        [demo],
      );
      expect(fields.rows).toHaveLength(3);
      for (const field of fields.rows) expect(field.size_m2).toBe(field.parcel_sum);
      const areas = await suite.db.query<{
        type: string;
        icon: string;
        bays: number;
        free_slots: number | null;
      }>(
        `SELECT a.type, a.icon, a.free_slots, (SELECT count(*)::int FROM parking_bays b WHERE b.area_id = a.id) AS bays
           FROM parking_areas a ORDER BY a.type, a.icon`,
      );
      expect(areas.rows.map((r) => [r.type, r.icon, r.bays])).toEqual([
        ['AI', 'PS', 1],
        ['AI', 'TP', 0],
        ['FIX', 'PS', 12],
      ]);
      // Counted from the replayed history; bay A-03 overstays.
      expect(areas.rows[2]?.free_slots).not.toBeNull();
      expect(await count(`alarms WHERE details ->> 'kind' = 'parking_overstay' AND state = 'raised'`)).toBe(
        1,
      );
      expect(await count('parking_area_counts')).toBeGreaterThan(10);
      // Every car park has its outline for the map; the Rathaus car park's alarms message and mail.
      expect(await count(`parking_areas WHERE geometry ->> 'type' = 'Polygon'`)).toBe(3);
      const parkingActions = await suite.db.query<{ type: string }>(
        `SELECT a.type FROM rule_actions a JOIN rules r ON r.id = a.rule_id JOIN parking_areas p ON p.id = r.parking_area_id
          WHERE r.trigger = 'parking' AND p.name = 'Parkplatz Rathaus' ORDER BY a.position`,
      );
      expect(parkingActions.rows.map((r) => r.type)).toEqual(['system', 'email']);
      // Two well meters, read-only, and an irrigation valve with control.
      expect(await count(`nwa_shared_devices WHERE access = 'read'`)).toBe(2);
      expect(await count(`nwa_shared_devices WHERE access = 'control'`)).toBe(1);
      expect(await count(`nwa_membership_requests WHERE state = 'pending'`)).toBe(1);
      // Farming (issue 24): boundaries, FLIK-shaped parcels with one free, the weather station on a field,
      // tasks in every state.
      expect(await count('farming_fields WHERE company_id = $1 AND geometry IS NOT NULL', [demo])).toBe(3);
      expect(
        await count(`parcels WHERE company_id = $1 AND registration_number ~ '^DE[A-Z]{4}[0-9]{10}$'`, [
          demo,
        ]),
      ).toBe(7);
      expect(await count('parcels WHERE company_id = $1 AND field_id IS NULL', [demo])).toBe(1);
      expect(
        await count(
          `devices WHERE company_id = $1 AND device_type = 'nbiot_weatherstation' AND field_id IS NOT NULL`,
          [demo],
        ),
      ).toBe(1);
      const statuses = await suite.db.query<{ status: string }>(
        'SELECT DISTINCT status FROM tasks WHERE company_id = $1 ORDER BY status',
        [demo],
      );
      expect(statuses.rows.map((r) => r.status)).toEqual(['abandoned', 'done', 'in_progress', 'planned']);
      // A task on two fields, and the soil sensor rule whose action plans an irrigation task.
      expect(
        await count(
          `tasks t WHERE company_id = $1 AND (SELECT count(*) FROM task_fields tf WHERE tf.task_id = t.id) = 2`,
          [demo],
        ),
      ).toBe(1);
      const taskActions = await suite.db.query<{ name: string; task_type: string }>(
        `SELECT r.name, a.settings->>'task_type' AS task_type FROM rule_actions a JOIN rules r ON r.id = a.rule_id
          WHERE a.company_id = $1 AND a.type = 'farming_task'`,
        [demo],
      );
      expect(taskActions.rows).toEqual([{ name: 'Acker Ost zu trocken', task_type: 'irrigation' }]);
    });

    it('gives the cold room its rule: email, system message, SMS and the cooling controller’s relay 1 on', async () => {
      const devices = await suite.db.query<{ id: number; name: string; driver_id: string; dev_eui: string }>(
        'SELECT id, name, driver_id, dev_eui FROM devices WHERE company_id = $1 AND name = ANY($2) ORDER BY id',
        [DEMO_COMPANIES.demo.id, [COLD_ROOM_NAME, COLD_ROOM_COOLING_NAME]],
      );
      expect(devices.rows.map((d) => d.name)).toEqual([COLD_ROOM_NAME, COLD_ROOM_COOLING_NAME]);
      const [coldRoom, cooling] = devices.rows;
      // The srd_gateway driver encodes relay commands; without a DevEUI the board is reached over MQTT.
      expect(cooling).toMatchObject({ driver_id: 'srd_gateway', dev_eui: null });
      const actions = await suite.db.query<Record<string, unknown>>(
        `SELECT a.type, a.recipients, a.target_device_id, a.command, a.command_params
           FROM rule_actions a JOIN rules r ON r.id = a.rule_id
          WHERE r.device_id = $1 AND r.operator = 'gte' AND r.value = 8 ORDER BY a.position`,
        [coldRoom?.id],
      );
      expect(actions.rows).toEqual([
        expect.objectContaining({ type: 'email', recipients: [COLD_ROOM_ALERT_EMAIL] }),
        expect.objectContaining({ type: 'system' }),
        expect.objectContaining({ type: 'sms', recipients: [COLD_ROOM_ALERT_PHONE] }),
        expect.objectContaining({
          type: 'remote_control',
          target_device_id: cooling?.id,
          command: 'switch_relay_output',
          command_params: { output: 1, on: true },
        }),
      ]);
      expect(validatePhoneNumber(COLD_ROOM_ALERT_PHONE, { country: null, mobile: true }).isValid).toBe(true);
    });
  });
});
