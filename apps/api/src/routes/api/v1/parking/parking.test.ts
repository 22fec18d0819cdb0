import { applyParkingReadings } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/app';
import { TestClient } from '../../../../test/client';
import { createDevice } from '../../../../test/device-fixtures';
import { createTeam, PASSWORD } from '../../../../test/fixtures';

const PARKINGSENSOR = 8;
const AI_PARKINGSENSOR = 1024;

forEachDb((suite) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function signIn(email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }

  const parkingTeam = () => createTeam(suite.db, { modules: ['parking'] });
  const sensor = (companyId: number, sensorType: number | null = PARKINGSENSOR) =>
    createDevice(suite.db, companyId, { sensor_type: sensorType });

  async function counts(companyId: number) {
    const { rows } = await suite.db.query<{ areas: number; bays: number; assigned: number }>(
      `SELECT (SELECT count(*)::int FROM parking_areas WHERE company_id = $1) AS areas,
              (SELECT count(*)::int FROM parking_bays WHERE company_id = $1) AS bays,
              (SELECT count(*)::int FROM devices WHERE company_id = $1 AND parking_area_id IS NOT NULL) AS assigned`,
      [companyId],
    );
    return rows[0];
  }

  describe('/parking/areas', () => {
    it('creates a FIX area with labelled bays, lists, reads, edits and deletes it', async () => {
      const team = await parkingTeam();
      const [a, b, c] = [
        await sensor(team.company.id),
        await sensor(team.company.id),
        await sensor(team.company.id),
      ];
      const main = await signIn(team.main.email);
      const created = await main.post('/api/v1/parking/areas', {
        name: ' Marktplatz ',
        type: 'FIX',
        icon: 'PS',
        max_parking_time: 120,
        grace_period: 10,
        latitude: 48.1,
        longitude: 11.5,
        devices: [
          { device_id: a!.id, label: 'A-1' },
          { device_id: b!.id, label: 'A-2' },
        ],
      });
      expect(created.status).toBe(200);
      const area = created.body.payload;
      expect(area).toMatchObject({
        name: 'Marktplatz',
        type: 'FIX',
        capacity: 2,
        max_parking_time: 120,
        grace_period: 10,
        icon: 'PS',
        free_slots: null,
        unknown_slots: 2,
        overstays: 0,
        device_ids: [a!.id, b!.id],
      });
      expect(area.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(area.bays.map((x: { label: string; status: string }) => [x.label, x.status])).toEqual([
        ['A-1', 'unknown'],
        ['A-2', 'unknown'],
      ]);

      const list = await main.get('/api/v1/parking/areas');
      expect(list.body.payload.map((x: { id: number }) => x.id)).toEqual([area.id]);
      const plain = await signIn(team.plain.email);
      expect((await plain.get(`/api/v1/parking/areas/${area.id}`)).body.payload).toEqual(area);

      const edited = await main.put(`/api/v1/parking/areas/${area.id}`, {
        name: 'Marktplatz Süd',
        type: 'FIX',
        icon: 'TP',
        capacity: 5,
        valid_from: '2026-12-01',
        valid_to: '2026-12-24',
        devices: [
          { device_id: b!.id, label: 'B-1' },
          { device_id: c!.id, label: 'B-2' },
        ],
      });
      expect(edited.status).toBe(200);
      expect(edited.body.payload).toMatchObject({
        name: 'Marktplatz Süd',
        icon: 'TP',
        capacity: 5,
        valid_from: '2026-12-01',
        valid_to: '2026-12-24',
        max_parking_time: null,
        device_ids: [b!.id, c!.id],
        unknown_slots: 5,
      });
      expect(edited.body.payload.bays.map((x: { label: string }) => x.label)).toEqual(['B-1', 'B-2']);
      expect(await counts(team.company.id)).toEqual({ areas: 1, bays: 2, assigned: 2 });

      expect((await main.delete(`/api/v1/parking/areas/${area.id}`)).status).toBe(200);
      expect(await counts(team.company.id)).toEqual({ areas: 0, bays: 0, assigned: 0 });
      expect((await main.get(`/api/v1/parking/areas/${area.id}`)).body.code).toBe(40001);
    });

    it('creates an AI area with counting sensors', async () => {
      const team = await parkingTeam();
      const camera = await sensor(team.company.id, AI_PARKINGSENSOR);
      const main = await signIn(team.main.email);
      const res = await main.post('/api/v1/parking/areas', {
        name: 'P+R Nord',
        type: 'AI',
        capacity: 345,
        area_size: 8200,
        icon: 'PG',
        devices: [{ device_id: camera.id }],
      });
      expect(res.status).toBe(200);
      expect(res.body.payload).toMatchObject({
        type: 'AI',
        capacity: 345,
        area_size: 8200,
        free_slots: null,
      });
      expect(res.body.payload.bays).toMatchObject([{ device_id: camera.id, label: null, status: 'unknown' }]);
    });

    it('refuses another company’s device with 40004 and a non-parking sensor with 40014, writing nothing', async () => {
      const team = await parkingTeam();
      const other = await parkingTeam();
      const own = await sensor(team.company.id);
      const foreign = await sensor(other.company.id);
      const thermometer = await sensor(team.company.id, null);
      const camera = await sensor(team.company.id, AI_PARKINGSENSOR);
      const main = await signIn(team.main.email);
      const body = (devices: number[]) => ({
        name: 'Hof',
        type: 'FIX',
        devices: devices.map((device_id, i) => ({ device_id, label: `P${i}` })),
      });
      const r1 = await main.post('/api/v1/parking/areas', body([own.id, foreign.id]));
      expect([r1.status, r1.body.code]).toEqual([403, 40004]);
      const r2 = await main.post('/api/v1/parking/areas', body([own.id, 999_999_999]));
      expect([r2.status, r2.body.code]).toEqual([403, 40004]);
      const r3 = await main.post('/api/v1/parking/areas', body([own.id, thermometer.id]));
      expect([r3.status, r3.body.code]).toEqual([422, 40014]);
      // A counting camera is not a per-bay sensor, nor the other way round.
      const r4 = await main.post('/api/v1/parking/areas', body([camera.id]));
      expect(r4.body.code).toBe(40014);
      const r5 = await main.post('/api/v1/parking/areas', {
        name: 'Cam',
        type: 'AI',
        capacity: 10,
        devices: [{ device_id: own.id }],
      });
      expect(r5.body.code).toBe(40014);
      expect(await counts(team.company.id)).toEqual({ areas: 0, bays: 0, assigned: 0 });

      // On edit too: the area keeps what it had.
      const ok = await main.post('/api/v1/parking/areas', body([own.id]));
      const r6 = await main.put(`/api/v1/parking/areas/${ok.body.payload.id}`, body([foreign.id]));
      expect(r6.body.code).toBe(40004);
      const r7 = await main.put(`/api/v1/parking/areas/${ok.body.payload.id}`, {
        name: 'Hof',
        type: 'AI',
        capacity: 3,
      });
      expect(r7.body.code).toBe(40014);
      expect((await main.get(`/api/v1/parking/areas/${ok.body.payload.id}`)).body.payload).toMatchObject({
        type: 'FIX',
        device_ids: [own.id],
      });
      // A bay belongs to one area.
      const r8 = await main.post('/api/v1/parking/areas', { ...body([own.id]), name: 'Zweiter Hof' });
      expect([r8.status, r8.body.code]).toEqual([409, 40012]);
    });

    it('takes null for every optional field, as the console’s form sends cleared fields', async () => {
      const team = await parkingTeam();
      const main = await signIn(team.main.email);
      const res = await main.post('/api/v1/parking/areas', {
        name: 'Leer',
        type: 'FIX',
        icon: 'PS',
        capacity: 3,
        description: null,
        area_size: null,
        max_parking_time: null,
        grace_period: null,
        latitude: null,
        longitude: null,
        geometry: null,
        valid_from: null,
        valid_to: null,
        alert_free_below: null,
        devices: [],
      });
      expect(res.status).toBe(200);
      expect(res.body.payload).toMatchObject({
        max_parking_time: null,
        grace_period: 0,
        latitude: null,
        alert_free_below: null,
        description: null,
      });
    });

    it('answers the spec’s codes for bad fields', async () => {
      const team = await parkingTeam();
      const main = await signIn(team.main.email);
      const base = { name: 'X', type: 'AI', capacity: 10 };
      const code = async (body: Record<string, unknown>) =>
        (await main.post('/api/v1/parking/areas', { ...base, ...body })).body.code;
      expect(await code({ type: 'BIG' })).toBe(40006);
      expect(await code({ capacity: -1 })).toBe(40007);
      expect(await code({ capacity: 1.5 })).toBe(40007);
      expect(await code({ icon: 'XX' })).toBe(40008);
      expect(await code({ max_parking_time: 0 })).toBe(40009);
      expect(await code({ grace_period: -5 })).toBe(40009);
      expect(await code({ area_size: -3 })).toBe(40010);
      expect(await code({ name: '' })).toBe(422);
      expect((await counts(team.company.id))?.areas).toBe(0);
    });

    it('exports the area as FIWARE OffStreetParking with ParkingSpots, and its history', async () => {
      const team = await createTeam(suite.db, { modules: ['parking', 'external_api'] });
      const [a, b] = [await sensor(team.company.id), await sensor(team.company.id)];
      const main = await signIn(team.main.email);
      const area = (
        await main.post('/api/v1/parking/areas', {
          name: 'Klinikum',
          type: 'FIX',
          icon: 'PG',
          max_parking_time: 90,
          latitude: 48.2,
          longitude: 11.6,
          devices: [
            { device_id: a.id, label: 'A-13' },
            { device_id: b.id, label: 'A-14' },
          ],
        })
      ).body.payload;
      const now = Date.now();
      const reading = (deviceId: number, occupied: boolean, minutesAgo: number) => ({
        deviceId,
        companyId: team.company.id,
        at: new Date(now - minutesAgo * 60_000).toISOString(),
        reading: { occupied },
      });
      await suite.db.transaction((tx) =>
        applyParkingReadings(tx, [reading(a.id, true, 50), reading(b.id, false, 50)], now - 50 * 60_000),
      );
      await suite.db.transaction((tx) =>
        applyParkingReadings(tx, [reading(a.id, false, 20)], now - 20 * 60_000),
      );
      await suite.db.transaction((tx) =>
        applyParkingReadings(tx, [reading(b.id, true, 10)], now - 10 * 60_000),
      );

      const res = await main.get(`/api/v1/parking/areas/${area.id}/ngsi-ld`);
      expect(res.status).toBe(200);
      const [park, ...spots] = res.body.payload;
      expect(park).toMatchObject({
        id: `urn:ngsi-ld:OffStreetParking:${area.uuid}`,
        type: 'OffStreetParking',
        name: { type: 'Property', value: 'Klinikum' },
        totalSpotNumber: { type: 'Property', value: 2 },
        availableSpotNumber: { type: 'Property', value: 1 },
        occupiedSpotNumber: { type: 'Property', value: 1 },
        occupancyDetectionType: { type: 'Property', value: ['singleSpaceDetection'] },
        maximumParkingDuration: { type: 'Property', value: 'PT90M' },
        layout: { type: 'Property', value: ['multiStorey'] },
        location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [11.6, 48.2] } },
        refParkingSpot: { type: 'Relationship', object: spots.map((s: { id: string }) => s.id) },
      });
      expect(park['@context']).toContain(
        'https://raw.githubusercontent.com/smart-data-models/dataModel.Parking/master/context.jsonld',
      );
      expect(spots).toHaveLength(2);
      expect(spots[0]).toMatchObject({
        type: 'ParkingSpot',
        name: { value: 'A-13' },
        status: { type: 'Property', value: 'free' },
        refParkingSite: { type: 'Relationship', object: park.id },
        refDevice: { type: 'Relationship', object: `urn:ngsi-ld:Device:${a.uuid}` },
      });
      expect(spots[1]).toMatchObject({ name: { value: 'A-14' }, status: { value: 'occupied' } });

      const history = (await main.get(`/api/v1/parking/areas/${area.id}/history?range=24h`)).body.payload;
      expect(history.capacity).toBe(2);
      expect(history.buckets.length).toBeGreaterThanOrEqual(23);
      expect(history.stays).toBe(2);
      expect(history.longest_stay_minutes).toBeCloseTo(30, 0);
      expect(history.turnover).toBeCloseTo(1, 5); // 2 stays, 2 bays, 1 day
      // It was never full for long (one bay free throughout but 10 min): full share is 0.
      expect(history.full_share).toBe(0);
      const last = history.buckets.at(-1);
      expect(last.occupied).toBeGreaterThan(0);

      const stranger = await signIn(
        (await createTeam(suite.db, { modules: ['parking', 'external_api'] })).main.email,
      );
      expect((await stranger.get(`/api/v1/parking/areas/${area.id}/ngsi-ld`)).body.code).toBe(40001);
      expect((await stranger.get(`/api/v1/parking/areas/${area.id}/history`)).body.code).toBe(40001);
    });

    it('keeps the alarm actions of an area as the actions of its parking rule', async () => {
      const team = await parkingTeam();
      const main = await signIn(team.main.email);
      const email = {
        channel: 'email',
        config: { recipient: 'parking@example.test', subject: 'Parkplatz', body: '{value} ({time})' },
      };
      const system = { channel: 'system', config: { subject: 'Parkplatz', text: '{value}' } };
      const created = await main.post('/api/v1/parking/areas', {
        name: 'Rathaus',
        type: 'AI',
        capacity: 10,
        alert_free_below: 1,
        alarm_actions: [email, system],
      });
      expect(created.status).toBe(200);
      const area = created.body.payload;
      expect(area.alarm_actions).toMatchObject([
        { channel: 'email', config: { recipient: 'parking@example.test', body: '{value} ({time})' } },
        { channel: 'system', config: { subject: 'Parkplatz', text: '{value}' } },
      ]);
      const rules = () =>
        suite.db.query<{ trigger: string; device_id: number | null; name: string; actions: number }>(
          `SELECT r.trigger, r.device_id, r.name,
                  (SELECT count(*)::int FROM rule_actions a WHERE a.rule_id = r.id) AS actions
             FROM rules r WHERE r.parking_area_id = $1`,
          [area.id],
        );
      expect((await rules()).rows).toEqual([
        { trigger: 'parking', device_id: null, name: 'Rathaus', actions: 2 },
      ]);

      // Absent keeps them (and the rule follows the area's name); a bad action is 422, nothing written.
      const renamed = await main.put(`/api/v1/parking/areas/${area.id}`, {
        name: 'Rathausplatz',
        type: 'AI',
        capacity: 10,
      });
      expect(renamed.body.payload.alarm_actions).toHaveLength(2);
      expect((await rules()).rows[0]).toMatchObject({ name: 'Rathausplatz', actions: 2 });
      for (const bad of [
        { channel: 'email', config: { recipient: 'not an address', subject: 'x', body: 'y' } },
        { channel: 'remote_control', config: { command: 'reboot' } },
        { channel: 'sms', config: { phone: 'abc', body: 'x' } },
      ]) {
        const res = await main.put(`/api/v1/parking/areas/${area.id}`, {
          name: 'Rathausplatz',
          type: 'AI',
          capacity: 10,
          alarm_actions: [system, bad],
        });
        expect([res.status, res.body.code]).toEqual([422, 422]);
        expect((await rules()).rows[0]).toMatchObject({ actions: 2 });
      }
      // The plain user reads them, and cannot change them.
      const plain = await signIn(team.plain.email);
      expect((await plain.get(`/api/v1/parking/areas/${area.id}`)).body.payload.alarm_actions).toHaveLength(
        2,
      );
      expect(
        (
          await plain.put(`/api/v1/parking/areas/${area.id}`, {
            name: 'X',
            type: 'AI',
            capacity: 10,
            alarm_actions: [],
          })
        ).body.code,
      ).toBe(90070);

      // An empty list removes the rule; deleting the area takes a rule along.
      await main.put(`/api/v1/parking/areas/${area.id}`, {
        name: 'Rathausplatz',
        type: 'AI',
        capacity: 10,
        alarm_actions: [],
      });
      expect((await rules()).rows).toEqual([]);
      await main.put(`/api/v1/parking/areas/${area.id}`, {
        name: 'Rathausplatz',
        type: 'AI',
        capacity: 10,
        alarm_actions: [system],
      });
      expect(await main.delete(`/api/v1/parking/areas/${area.id}`)).toMatchObject({ status: 200 });
      expect((await rules()).rows).toEqual([]);
      // The device rule lists are untouched by parking rules.
      expect(
        (await suite.db.query('SELECT 1 FROM rules WHERE company_id = $1', [team.company.id])).rows,
      ).toEqual([]);
    });

    it('answers the NGSI-LD export only to a company with the external API module', async () => {
      const team = await parkingTeam();
      const main = await signIn(team.main.email);
      const area = (await main.post('/api/v1/parking/areas', { name: 'Offen', type: 'AI', capacity: 4 })).body
        .payload;
      const refused = await main.get(`/api/v1/parking/areas/${area.id}/ngsi-ld`);
      expect([refused.status, refused.body.code]).toEqual([403, 27]);
      // The rest of the module answers as before.
      expect((await main.get(`/api/v1/parking/areas/${area.id}`)).status).toBe(200);

      await suite.db.query(`UPDATE companies SET modules = '{parking,external_api}' WHERE id = $1`, [
        team.company.id,
      ]);
      const licensed = await main.get(`/api/v1/parking/areas/${area.id}/ngsi-ld`);
      expect(licensed.status).toBe(200);
      expect(licensed.body.payload[0]).toMatchObject({ type: 'OffStreetParking', name: { value: 'Offen' } });
    });

    it('keeps other companies, plain users and unlicensed companies out', async () => {
      const team = await parkingTeam();
      const other = await parkingTeam();
      const unlicensed = await createTeam(suite.db);
      const main = await signIn(team.main.email);
      const area = (await main.post('/api/v1/parking/areas', { name: 'Eigen', type: 'AI', capacity: 4 })).body
        .payload;

      const stranger = await signIn(other.main.email);
      expect((await stranger.get('/api/v1/parking/areas')).body.payload).toEqual([]);
      for (const res of [
        await stranger.get(`/api/v1/parking/areas/${area.id}`),
        await stranger.put(`/api/v1/parking/areas/${area.id}`, { name: 'Fremd', type: 'AI', capacity: 4 }),
        await stranger.delete(`/api/v1/parking/areas/${area.id}`),
      ])
        expect([res.status, res.body.code]).toEqual([404, 40001]);

      const plain = await signIn(team.plain.email);
      const refused = await plain.post('/api/v1/parking/areas', { name: 'Nope', type: 'AI', capacity: 1 });
      expect([refused.status, refused.body.code]).toEqual([403, 90070]);
      expect((await plain.delete(`/api/v1/parking/areas/${area.id}`)).body.code).toBe(90070);

      const locked = await signIn(unlicensed.main.email);
      const res = await locked.get('/api/v1/parking/areas');
      expect([res.status, res.body.code]).toEqual([403, 27]);
      expect((await main.get(`/api/v1/parking/areas/${area.id}`)).body.payload.name).toBe('Eigen');
    });
  });
});
