/**
 * The authorization matrix's world and table types: the caller kinds, the expected answers, and a fresh
 * world per case (two companies, their users, a super admin, and one of each row a route addresses).
 */
import type { Db } from '@iot/db';
import { createSuperAdmin, createTeam, createUser } from '../test/fixtures';
import { seedParkingWorld } from './matrix-parking-world';

export type Actor = 'anonymous' | 'plain' | 'main' | 'admin' | 'superAdmin' | 'otherMain';
export const ACTORS: Actor[] = ['anonymous', 'plain', 'main', 'admin', 'superAdmin', 'otherMain'];

/** [HTTP status, API code] for errors; 200 for success. */
export type Expected = 200 | readonly [number, number];
export const OK = 200;
export const NOT_LOGGED_IN = [401, 76] as const;
/** Creating and managing users (spec code 64). */
export const NO_PERMISSION = [403, 64] as const;
// The project's own refusal codes (error catalogue, 90001 and up).
export const NO_DEVICE_EDIT = [403, 90001] as const;
export const NO_COMMANDS = [403, 90003] as const;
export const NO_RULES = [403, 90004] as const;
export const NO_GROUPS = [403, 90005] as const;
export const NO_DASHBOARDS = [403, 90006] as const;
export const NO_INTEGRATIONS = [403, 90007] as const;
export const NO_COMPANY_EDIT = [403, 90008] as const;
export const MAIN_USER = [403, 54] as const;
export const USER_NOT_FOUND = [404, 62] as const;
export const UNAUTHORIZED = [401, 401] as const;
export const NO_IMPERSONATION = [403, 72] as const;
export const TOKEN_INVALID = [422, 31] as const;
export const NO_ROUTE = [404, 404] as const;
export const DEVICE_NOT_FOUND = [404, 10] as const;
export const NOT_FOUND = [404, 404] as const;
export const DOWNLINK_NOT_SUPPORTED = [422, 93] as const;
export const GROUP_NOT_FOUND = [404, 46] as const;
export const DASHBOARD_NOT_FOUND = [404, 96] as const;

export interface World {
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
  homeCodecId: number;
}

export interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: (w: World) => string;
  body?: (w: World) => unknown;
  /** The body's content type when it is not JSON (the CSV import's text/csv). */
  contentType?: string;
  /** Expected answer per actor, in the order of ACTORS. */
  expect: [Expected, Expected, Expected, Expected, Expected, Expected];
}

// Paths in test names show which resource they address instead of a fresh world's ids.
export const PLACEHOLDERS = {
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
  homeCodecId: ':home-codec',
} as unknown as World;

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
  w.homeCodecId = await one(
    `INSERT INTO codecs (company_id, name, script, functions) VALUES ($1, 'Matrix codec', 'function decodeUplink(i) { return { data: { b: i.bytes[0] } }; }', '{decodeUplink}')`,
    [w.homeId],
  );
  w.homeMessageId = await one(`INSERT INTO messages (company_id, subject) VALUES ($1, 'For everyone')`, [
    w.homeId,
  ]);
}

/** A fresh world for one case; `countryId` and `stateId` are the seeded DE country and one of its states. */
export async function createWorld(db: Db, countryId: number, stateId: number) {
  // The map view module: its map routes answer the matrix's roles, not 27 (issue #27).
  const home = await createTeam(db, { modules: ['map_view'] });
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
    // Set by seedRulesWorld.
    homeRuleId: 0,
    homeFieldId: 0,
    homeCheckId: 0,
    homeAlarmId: 0,
    homeMessageId: 0,
    homeCodecId: 0,
  };
  await seedRulesWorld(db, world);
  await seedParkingWorld(db, world, other.company.id);
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
  return { world, emails };
}
