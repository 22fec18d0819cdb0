/**
 * Every route of the identity issue against every kind of caller, each with its expected answer.
 * Each case gets a fresh world (two companies, their users, a super admin), so mutating calls cannot
 * influence one another. The caller always holds a valid CSRF token: this table is about authorization.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app';
import { TestClient } from '../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../test/databases';
import { createSuperAdmin, createTeam, createUser, PASSWORD, uniqueEmail } from '../test/fixtures';

type Actor = 'anonymous' | 'plain' | 'main' | 'admin' | 'superAdmin' | 'otherMain';
const ACTORS: Actor[] = ['anonymous', 'plain', 'main', 'admin', 'superAdmin', 'otherMain'];

/** [HTTP status, API code] for errors; 200 for success. */
type Expected = 200 | readonly [number, number];
const OK = 200;
const NOT_LOGGED_IN = [401, 76] as const;
const NO_PERMISSION = [403, 64] as const;
const MAIN_USER = [403, 54] as const;
const USER_NOT_FOUND = [404, 62] as const;
const UNAUTHORIZED = [401, 401] as const;
const NO_IMPERSONATION = [403, 72] as const;
const TOKEN_INVALID = [422, 31] as const;
const NO_ROUTE = [404, 404] as const;
const DEVICE_NOT_FOUND = [404, 10] as const;
const NOT_FOUND = [404, 404] as const;
const DOWNLINK_NOT_SUPPORTED = [422, 93] as const;
const GROUP_NOT_FOUND = [404, 46] as const;
const DASHBOARD_NOT_FOUND = [404, 96] as const;

interface World {
  homeId: number;
  mainId: number;
  colleagueId: number;
  countryId: number;
  stateId: number;
  plainEmail: string;
  homeDeviceId: number;
  homeTokenId: number;
  homeGroupId: number;
  homeDashboardId: number;
  homeRuleId: number;
  homeFieldId: number;
  homeCheckId: number;
  homeAlarmId: number;
  homeMessageId: number;
}

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: (w: World) => string;
  body?: (w: World) => unknown;
  /** Expected answer per actor, in the order of ACTORS. */
  expect: [Expected, Expected, Expected, Expected, Expected, Expected];
}

//                         anonymous      plain          main           admin          superAdmin     otherMain
const ROWS: Row[] = [
  { method: 'GET', path: () => '/sanctum/csrf-cookie', expect: [OK, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/sanctum/csrf-cookie', expect: [OK, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/core/version', expect: [OK, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/docs/json', expect: [OK, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/auth/login',
    body: (w) => ({ email: w.plainEmail, password: PASSWORD }),
    expect: [OK, OK, OK, OK, OK, OK],
  },
  { method: 'POST', path: () => '/api/v1/auth/logout', expect: [OK, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/auth/forgot-password',
    body: (w) => ({ email: w.plainEmail }),
    expect: [OK, OK, OK, OK, OK, OK],
  },
  {
    method: 'POST',
    path: () => '/api/v1/auth/reset-password',
    body: () => ({ token: 'no-such-token', password: 'Brand-New-Pass9?' }),
    expect: [TOKEN_INVALID, TOKEN_INVALID, TOKEN_INVALID, TOKEN_INVALID, TOKEN_INVALID, TOKEN_INVALID],
  },
  { method: 'GET', path: () => '/api/v1/core/user', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/auth/me', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'PUT',
    path: () => '/api/v1/core/users/acceptEula',
    body: () => ({ accepted: true }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  { method: 'GET', path: () => '/api/v1/core/users', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/core/users',
    body: () => ({ email: uniqueEmail('matrix'), name: 'Matrix', password: 'Brand-New-Pass9?' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/users/${w.colleagueId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/users/${w.colleagueId}`,
    body: () => ({ name: 'Renamed' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/users/${w.mainId}`,
    body: () => ({ name: 'Renamed main' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, MAIN_USER, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/users/${w.colleagueId}/admin`,
    body: () => ({ admin: true }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/users/${w.colleagueId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/users/${w.mainId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, [403, 50103], MAIN_USER, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  { method: 'GET', path: () => '/api/v1/core/company', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'PUT',
    path: () => '/api/v1/core/company/',
    body: () => ({ city: 'Freiburg' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  { method: 'GET', path: () => '/api/v1/core/countries', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/countries/${w.countryId}/states`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/states/${w.stateId}/districts`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  { method: 'GET', path: () => '/api/v1/core/module', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/core/modules', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/core/drivers', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/core/support',
    body: () => ({ subject: 'Help', message: 'Please.' }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: () => '/api/v1/admin/clients',
    expect: [NOT_LOGGED_IN, UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED, OK, UNAUTHORIZED],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/admin/clients/${w.homeId}`,
    body: () => ({ modules: ['parking'] }),
    expect: [NOT_LOGGED_IN, NO_IMPERSONATION, NO_IMPERSONATION, NO_IMPERSONATION, OK, NO_IMPERSONATION],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/admin/clients/${w.homeId}`,
    expect: [NOT_LOGGED_IN, NO_IMPERSONATION, NO_IMPERSONATION, NO_IMPERSONATION, OK, NO_IMPERSONATION],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/admin/clients/${w.homeId}/impersonate`,
    expect: [NOT_LOGGED_IN, NO_IMPERSONATION, NO_IMPERSONATION, NO_IMPERSONATION, OK, NO_IMPERSONATION],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/leave_impersonation',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  { method: 'GET', path: () => '/api/v1/core/devices', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}`,
    body: () => ({ name: 'Renamed device', state: 'maintenance' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/metadata`,
    body: () => ({ data_fields: [{ data_field: 'temperature', label: 'Temperature', sort: 1 }] }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/credentials`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  ...['logs', 'notifications', 'battery', 'mobile-data'].map(
    (sub): Row => ({
      method: 'GET',
      path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/${sub}`,
      expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
    }),
  ),
  {
    method: 'GET',
    path: (w) => `/api/v1/core/data/${w.homeDeviceId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/data/${w.homeDeviceId}/current`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/integrations/tokens',
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/integrations/tokens',
    body: () => ({ kind: 'chirpstack', name: 'Matrix LNS' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/integrations/network-server',
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  {
    method: 'PUT',
    path: () => '/api/v1/core/integrations/network-server',
    body: () => ({ kind: 'chirpstack', api_url: 'https://chirpstack.matrix.test', api_token: 'matrix' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  {
    method: 'DELETE',
    path: () => '/api/v1/core/integrations/network-server',
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/integrations/tokens/${w.homeTokenId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, NOT_FOUND, NOT_FOUND],
  },
  { method: 'GET', path: () => '/api/v1/core/groups', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/core/groups',
    body: () => ({ name: 'Matrix group' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/groups/${w.homeGroupId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, GROUP_NOT_FOUND, GROUP_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/groups/${w.homeGroupId}`,
    body: () => ({ name: 'Renamed group', device_ids: [] }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, GROUP_NOT_FOUND, GROUP_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/groups/${w.homeGroupId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, GROUP_NOT_FOUND, GROUP_NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/company/dashboards',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/company/dashboards',
    body: () => ({ name: 'Matrix dashboard', widgets: [] }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/company/dashboards/${w.homeDashboardId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DASHBOARD_NOT_FOUND, DASHBOARD_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/company/dashboards/${w.homeDashboardId}`,
    body: () => ({ name: 'Renamed dashboard', widgets: [] }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DASHBOARD_NOT_FOUND, DASHBOARD_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/company/dashboards/${w.homeDashboardId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DASHBOARD_NOT_FOUND, DASHBOARD_NOT_FOUND],
  },
  // Many ids in one read: another company's ids come back under `missing`, never their values.
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/current?ids=${w.homeDeviceId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/devices/positions',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/devices/alarms',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/alarms/${w.homeAlarmId}/acknowledge`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, NOT_FOUND, NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}`,
    body: () => ({ rules: [{ trigger: 'no_data', time_window_seconds: 600 }] }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/rules/${w.homeRuleId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/devices/virtual_data_fields',
    body: () => ({ formula: 'temperature * 2', data_fields: { temperature: 1 } }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/virtual_data_fields`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/virtual_data_fields`,
    body: () => ({ name: 'Events', function: 'count_up_daily' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/virtual_data_fields/${w.homeFieldId}`,
    body: () => ({ unit: 'x' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/virtual_data_fields/${w.homeFieldId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/devices/sensor_checks',
    body: () => ({ data_fields: ['temperature'] }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/sensor_checks`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/sensor_checks`,
    body: () => ({ kind: 'battery_low', level: 15 }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/sensor_checks/${w.homeCheckId}`,
    body: () => ({ kind: 'no_data', max_silence_seconds: 120 }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/sensor_checks/${w.homeCheckId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    // The matrix device has no driver: managers pass authorization and meet the domain's 93.
    method: 'POST',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/downlink`,
    body: () => ({ command: 'reboot' }),
    expect: [
      NOT_LOGGED_IN,
      NO_PERMISSION,
      DOWNLINK_NOT_SUPPORTED,
      DOWNLINK_NOT_SUPPORTED,
      DEVICE_NOT_FOUND,
      DEVICE_NOT_FOUND,
    ],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/downlinks`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/messages?show_read=1',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/messages/${w.homeMessageId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, NOT_FOUND, NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/messages/${w.homeMessageId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, NOT_FOUND, NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/no/such/route',
    expect: [NO_ROUTE, NO_ROUTE, NO_ROUTE, NO_ROUTE, NO_ROUTE, NO_ROUTE],
  },
];

// Paths in test names show which resource they address instead of a fresh world's ids.
const PLACEHOLDERS = {
  homeId: ':home-company',
  mainId: ':home-main-user',
  colleagueId: ':home-colleague',
  countryId: ':DE',
  stateId: ':DE-state',
  plainEmail: '',
  homeDeviceId: ':home-device',
  homeTokenId: ':home-token',
  homeRuleId: ':home-rule',
  homeFieldId: ':home-virtual-field',
  homeCheckId: ':home-sensor-check',
  homeAlarmId: ':home-alarm',
  homeMessageId: ':home-message',
  homeGroupId: ':home-group',
  homeDashboardId: ':home-dashboard',
} as unknown as World;

const CASES = ROWS.flatMap((row) =>
  ACTORS.map((actor, i) => ({ row, actor, expected: row.expect[i]!, path: row.path(PLACEHOLDERS) })),
);

/** A rule, virtual field, sensor check, alarm and message of the home company and device. */
async function seedRulesWorld(db: Db, w: World): Promise<void> {
  const one = async (sql: string, params: unknown[]) =>
    (await db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, params)).rows[0]!.id;
  const home = [w.homeId, w.homeDeviceId];
  w.homeRuleId = await one(
    `INSERT INTO rules (company_id, device_id, trigger, time_window_seconds) VALUES ($1, $2, 'no_data', 60)`,
    home,
  );
  w.homeFieldId = await one(
    `INSERT INTO virtual_data_fields (company_id, device_id, name, function) VALUES ($1, $2, 'Count', 'sum_up')`,
    home,
  );
  w.homeCheckId = await one(
    `INSERT INTO sensor_checks (company_id, device_id, kind, max_silence_seconds) VALUES ($1, $2, 'no_data', 60)`,
    home,
  );
  w.homeAlarmId = await one(
    'INSERT INTO alarms (company_id, device_id, rule_id, value) VALUES ($1, $2, $3, 1)',
    [...home, w.homeRuleId],
  );
  w.homeMessageId = await one(`INSERT INTO messages (company_id, subject) VALUES ($1, 'For everyone')`, [
    w.homeId,
  ]);
}

describe.each(DB_KINDS)('authorization matrix on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;
  let countryId: number;
  let stateId: number;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db, {
      rateLimits: {
        loginPerAddress: { max: 100_000, windowMs: 60_000 },
        forgotPerAddress: { max: 100_000, windowMs: 60_000 },
      },
    });
    await app.ready();
    const { rows } = await db.query<{ country_id: number; state_id: number }>(
      `SELECT c.id AS country_id, min(s.id)::int AS state_id FROM countries c JOIN states s ON s.country_id = c.id
        WHERE c.code = 'DE' GROUP BY c.id`,
    );
    countryId = rows[0]!.country_id;
    stateId = rows[0]!.state_id;
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  it.each(CASES)('$row.method $path as $actor', async ({ row, actor, expected }) => {
    const home = await createTeam(db);
    const colleague = await createUser(db, home.company.id, { name: 'Colleague' });
    const other = await createTeam(db);
    const superAdmin = await createSuperAdmin(db);
    const world: World = {
      homeId: home.company.id,
      mainId: home.main.id,
      colleagueId: colleague.id,
      countryId,
      stateId,
      plainEmail: home.plain.email,
      homeDeviceId: (
        await db.query<{ id: number }>(
          `INSERT INTO devices (company_id, name) VALUES ($1, 'Matrix device') RETURNING id::int AS id`,
          [home.company.id],
        )
      ).rows[0]!.id,
      homeTokenId: (
        await db.query<{ id: number }>(
          `INSERT INTO integration_tokens (company_id, kind, name, token_hash)
           VALUES ($1, 'http', 'Matrix', md5(random()::text)) RETURNING id::int AS id`,
          [home.company.id],
        )
      ).rows[0]!.id,
      homeGroupId: (
        await db.query<{ id: number }>(
          `INSERT INTO groups (company_id, name) VALUES ($1, 'Matrix group home') RETURNING id::int AS id`,
          [home.company.id],
        )
      ).rows[0]!.id,
      homeDashboardId: (
        await db.query<{ id: number }>(
          `INSERT INTO dashboards (company_id, name) VALUES ($1, 'Matrix dashboard home') RETURNING id::int AS id`,
          [home.company.id],
        )
      ).rows[0]!.id,
      // Set by seedRulesWorld below.
      homeRuleId: 0,
      homeFieldId: 0,
      homeCheckId: 0,
      homeAlarmId: 0,
      homeMessageId: 0,
    };
    await seedRulesWorld(db, world);
    // Every company an actor acts for has a network server (1: the super admin's, spec section 3, shared by
    // all worlds), so DELETE finds one for whoever may remove it.
    await db.query(
      `INSERT INTO network_servers (company_id, kind, api_url, api_token)
       SELECT c, 'chirpstack', 'https://matrix.test', 'matrix' FROM unnest($1::bigint[]) AS c
       ON CONFLICT (company_id) DO NOTHING`,
      [[home.company.id, other.company.id, 1]],
    );
    const emails: Record<Exclude<Actor, 'anonymous'>, string> = {
      plain: home.plain.email,
      main: home.main.email,
      admin: home.admin.email,
      superAdmin: superAdmin.email,
      otherMain: other.main.email,
    };
    const client = new TestClient(app);
    if (actor === 'anonymous') await client.csrf();
    else await client.login(emails[actor], PASSWORD);

    const res = await client.request(
      row.method,
      row.path(world),
      row.body?.(world) ?? (row.method === 'GET' || row.method === 'DELETE' ? undefined : {}),
    );
    const got = res.status === 200 ? 200 : [res.status, res.body?.code];
    expect(got).toEqual(expected);
  });
});
