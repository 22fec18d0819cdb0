import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../../../../../test/databases';
import { createSuperAdmin, createTeam, createUser, PASSWORD } from '../../../../../test/fixtures';

describe.each(DB_KINDS)('company, reference data and platform calls on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db, { supportEmail: 'support@example.test' });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  async function signIn(email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }

  async function refIds() {
    const { rows } = await db.query<{
      country_id: number;
      state_id: number;
      district_id: number;
      other_state_id: number;
    }>(
      `SELECT c.id AS country_id, s.id AS state_id, d.id AS district_id,
              (SELECT s2.id FROM states s2 WHERE s2.country_id <> c.id LIMIT 1) AS other_state_id
         FROM countries c JOIN states s ON s.country_id = c.id JOIN districts d ON d.state_id = s.id
        WHERE c.code = 'DE' AND s.name = 'Baden-Württemberg' AND d.name = 'Emmendingen'`,
    );
    return rows[0]!;
  }

  it('updates the base data of the acting company only', async () => {
    const team = await createTeam(db);
    const other = await createTeam(db);
    const ref = await refIds();
    const client = await signIn(team.main.email);
    const res = await client.put('/api/v1/core/company/', {
      name: 'Hof Sonnenschein',
      name2: 'GbR',
      street: 'Hauptstraße',
      street_number: '12a',
      zip: '79312',
      city: 'Emmendingen',
      country_id: ref.country_id,
      state_id: ref.state_id,
      district_id: ref.district_id,
      phone: '+49 7641 123456',
      email: 'info@hof.example',
      // Fields the company may not set itself are dropped, not applied.
      modules: ['parking'],
      blocked: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({
      id: team.company.id,
      name: 'Hof Sonnenschein',
      name2: 'GbR',
      street_number: '12a',
      country: 'DE',
      district_id: ref.district_id,
      modules: [],
      blocked: false,
    });
    const me = await client.get('/api/v1/core/user');
    expect(me.body.payload.company.name).toBe('Hof Sonnenschein');
    const { rows } = await db.query<{ name: string }>('SELECT name FROM companies WHERE id = $1', [
      other.company.id,
    ]);
    expect(rows[0]!.name).toBe(other.company.name);
  });

  it.each([
    ['a plain user', 'plain', {}, 403, 90008],
    ['an invalid email', 'main', { email: 'not an address' }, 422, 422],
    ['an empty name', 'main', { name: '' }, 422, 422],
    ['a phone number that is not one', 'main', { phone: '12' }, 422, 422],
    ['a state of another country', 'main', { state: true }, 422, 109],
    ['an unknown district', 'main', { district_id: 999999 }, 422, 109],
  ] as const)('refuses %s and changes nothing', async (_label, who, body, status, code) => {
    const team = await createTeam(db);
    const ref = await refIds();
    const client = await signIn(team[who].email);
    const payload: Record<string, unknown> = { ...body, name: 'name' in body ? body.name : 'Changed' };
    if ('state' in payload) {
      delete payload.state;
      payload.country_id = ref.country_id;
      payload.state_id = ref.other_state_id;
    }
    const res = await client.put('/api/v1/core/company', payload);
    expect([res.status, res.body.code]).toEqual([status, code]);
    const { rows } = await db.query<{ name: string }>('SELECT name FROM companies WHERE id = $1', [
      team.company.id,
    ]);
    expect(rows[0]!.name).toBe(team.company.name);
  });

  it('lists countries, states and districts sorted by name (German collation on both databases)', async () => {
    const team = await createTeam(db);
    const client = await signIn(team.plain.email);
    const countries = await client.get('/api/v1/core/countries');
    expect(countries.body.payload.map((c: { code: string }) => c.code)).toEqual(['DE', 'FR', 'AT', 'CH']);
    const de = countries.body.payload.find((c: { code: string }) => c.code === 'DE');
    const states = await client.get(`/api/v1/core/countries/${de.id}/states`);
    const names: string[] = states.body.payload.map((s: { name: string }) => s.name);
    expect(names).toHaveLength(16);
    expect(names.slice(0, 3)).toEqual(['Baden-Württemberg', 'Bayern', 'Berlin']);
    const collator = new Intl.Collator('de', { sensitivity: 'base', numeric: true });
    expect([...names].sort(collator.compare)).toEqual(names);
    const bw = states.body.payload[0];
    const districts = await client.get(`/api/v1/core/states/${bw.id}/districts`);
    const districtNames: string[] = districts.body.payload.map((d: { name: string }) => d.name);
    expect(districtNames).toContain('Emmendingen');
    expect([...districtNames].sort(collator.compare)).toEqual(districtNames);
    expect((await client.get('/api/v1/core/countries/999999/states')).status).toBe(404);
    expect((await client.get('/api/v1/core/states/abc/districts')).status).toBe(422);
  });

  it('answers the modules of the company; the super admin has all of them', async () => {
    const team = await createTeam(db, { modules: ['parking', 'farming'] });
    const client = await signIn(team.plain.email);
    expect((await client.get('/api/v1/core/module')).body.payload).toEqual(['parking', 'farming']);
    const all = await client.get('/api/v1/core/modules');
    expect(all.body.payload).toEqual([
      { name: 'map_view', licensed: false },
      { name: 'parking', licensed: true },
      { name: 'farming', licensed: true },
      { name: 'water_association', licensed: false },
      { name: 'external_api', licensed: false },
      { name: 'paid_messaging', licensed: false },
    ]);
    const admin = await signIn((await createSuperAdmin(db)).email);
    expect((await admin.get('/api/v1/core/module')).body.payload).toHaveLength(6);
  });

  it('lists the device types as drivers and the version without a session', async () => {
    const team = await createTeam(db);
    const client = await signIn(team.plain.email);
    const drivers = await client.get('/api/v1/core/drivers');
    expect(drivers.body.payload.map((d: { device_type: string }) => d.device_type)).toEqual([
      'nbiot_button',
      'srd_button',
      'srd_gateway',
      'nbiot_soil_sensor',
      'nbiot_frost_sensor',
      'nbiot_distance_sensor',
      'nbiot_weatherstation',
    ]);
    const version = await new TestClient(app).get('/api/v1/core/version');
    expect(version.body).toEqual({ payload: { version: '1.2.3-test', api: 'v1', map_style_url: null } });
  });

  it('stores a support request for the company and mails it to support', async () => {
    const team = await createTeam(db);
    const client = await signIn(team.plain.email);
    const res = await client.post('/api/v1/core/support', {
      subject: 'Sensor offline',
      message: 'Since Monday.',
    });
    expect(res.status).toBe(200);
    const { rows } = await db.query<{ company_id: number; user_id: number; subject: string }>(
      'SELECT company_id, user_id, subject FROM support_requests WHERE company_id = $1',
      [team.company.id],
    );
    expect(rows).toEqual([
      { company_id: team.company.id, user_id: team.plain.id, subject: 'Sensor offline' },
    ]);
    const { rows: mails } = await db.query<{ subject: string; body: string }>(
      `SELECT subject, body FROM outbox_emails WHERE 'support@example.test' = ANY(recipients) AND company_id = $1`,
      [team.company.id],
    );
    expect(mails[0]?.subject).toContain('Sensor offline');
    expect(mails[0]?.body).toContain(team.plain.email);
  });

  it("words the support mail in the language of the support address's user", async () => {
    await createSuperAdmin(db);
    const support = await createUser(db, 1, { email: 'support@example.test', locale: 'de' });
    const team = await createTeam(db);
    const client = await signIn(team.main.email);
    const mailBody = async (subject: string) => {
      expect(
        (await client.post('/api/v1/core/support', { subject, message: 'Hilfe', phone: '+49 761 1' })).status,
      ).toBe(200);
      const { rows } = await db.query<{ subject: string; body: string }>(
        `SELECT subject, body FROM outbox_emails WHERE company_id = $1 AND subject LIKE '%' || $2`,
        [team.company.id, subject],
      );
      return rows[0]!;
    };
    const german = await mailBody('Gateway stumm');
    expect(german.subject).toMatch(/^\[Support #\d+\] Gateway stumm$/);
    expect(german.body).toContain(`Unternehmen: ${team.company.name}`);
    expect(german.body).toContain('Telefon: +49 761 1');
    await db.query(`UPDATE users SET locale = 'en' WHERE id = $1`, [support.id]);
    const english = await mailBody('Gateway silent');
    expect(english.body).toContain(`Company: ${team.company.name}`);
    expect(english.body).toContain('Phone: +49 761 1');
  });
});
