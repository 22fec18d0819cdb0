import { forEachDb } from '@iot/db/testing';
import { memberUsageFigures, usageSteps, waterYear } from '@iot/domain';
import { describe, expect, it } from 'vitest';
import { DEMO_COMPANIES } from './demo-accounts.js';
import { seedDemoData } from './seed-demo-data.js';
import { DEMO_SECOND_FARM } from './seed-water.js';

const now = new Date('2026-11-21T12:00:00Z');

describe('the demo water association', () => {
  forEachDb((suite) => {
    it('has two members (the demo client its admin), one open request and two shared meters', async () => {
      await seedDemoData(suite.db, { now });
      const nwa = DEMO_COMPANIES.waterAssociation.id;
      const members = await suite.db.query<{ name: string; is_admin: boolean }>(
        `SELECT c.name, m.is_admin FROM nwa_members m JOIN companies c ON c.id = m.company_id
          WHERE m.nwa_company_id = $1 ORDER BY c.name`,
        [nwa],
      );
      expect(members.rows).toEqual([
        { name: DEMO_COMPANIES.demo.name, is_admin: true },
        { name: DEMO_SECOND_FARM, is_admin: false },
      ]);
      const requests = await suite.db.query<{ company_id: number }>(
        `SELECT company_id::int AS company_id FROM nwa_membership_requests WHERE state = 'pending'`,
      );
      expect(requests.rows).toEqual([{ company_id: DEMO_COMPANIES.other.id }]);
    });

    it('shares an irrigation valve of the demo client with control, with a driver that switches it', async () => {
      const { rows } = await suite.db.query<{ name: string; driver_id: string; company_id: number }>(
        `SELECT d.name, d.driver_id, s.counts_against_company_id::int AS company_id
           FROM nwa_shared_devices s JOIN devices d ON d.id = s.device_id AND d.company_id = s.company_id
          WHERE s.nwa_company_id = $1 AND s.access = 'control'`,
        [DEMO_COMPANIES.waterAssociation.id],
      );
      expect(rows).toEqual([
        { name: 'Ventil Beregnung Ost', driver_id: 'nbiot_soil_sensor', company_id: DEMO_COMPANIES.demo.id },
      ]);
    });

    it('puts the demo client at 85 % of its allowance across a counter reset', async () => {
      const nwa = DEMO_COMPANIES.waterAssociation.id;
      const shares = await suite.db.query<{ device_id: number; company_id: number; allowance: number }>(
        `SELECT s.device_id::int AS device_id, s.company_id::int AS company_id, r.max_per_year AS allowance
           FROM nwa_shared_devices s JOIN nwa_max_flow_rates r ON r.company_id = s.company_id AND r.nwa_company_id = s.nwa_company_id
          WHERE s.nwa_company_id = $1 AND s.access = 'read' ORDER BY s.company_id`,
        [nwa],
      );
      expect(shares.rows).toHaveLength(2);
      const demo = shares.rows.find((r) => r.company_id === DEMO_COMPANIES.demo.id)!;
      const year = waterYear(now, 1, 'Europe/Berlin');
      const readings = await suite.db.query<{ at: Date; value: number }>(
        `SELECT created_at AS at, (data->>'counter_1')::float8 AS value FROM device_data
          WHERE device_id = $1 AND created_at >= $2 ORDER BY created_at`,
        [demo.device_id, year.start],
      );
      const steps = usageSteps(
        readings.rows.map((r) => ({ at: new Date(r.at), value: Number(r.value) })),
        { meterFactor: 1, unit: 'm3' },
      );
      expect(steps.filter((s) => s.counterDropped)).toHaveLength(1);
      const used = steps.reduce((sum, s) => sum + s.volume, 0);
      const figures = memberUsageFigures({
        used,
        allowancePerYear: demo.allowance,
        allowancePerHour: 12,
        maxHourly: 0,
        year,
        now,
        lastReadingAt: null,
      });
      expect(figures.percent).toBeGreaterThan(84.9);
      expect(figures.percent).toBeLessThan(85.1);
      const total = await suite.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM device_data WHERE device_id = $1',
        [demo.device_id],
      );
      expect(total.rows[0]?.n).toBeGreaterThan(4000); // a year every two hours
    });
  });
});
