/** Rows the notifier's tests need, written with plain SQL into a real test database. Tests only. */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@iot/config';
import type { NotifyActionPayload } from '@iot/contracts';
import type { Queryable } from '@iot/db';
import { createLogger } from '@iot/runtime';

export const silentLog = createLogger({ level: 'silent', name: 'notifier-test' });

export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({ PROFILE: 'embedded', DEMO_DATA: 'false', ...env });
}

export interface Fixture {
  companyId: number;
  deviceId: number;
  deviceUuid: string;
  ruleId: number;
}

export async function createFixture(
  db: Queryable,
  options: {
    companyName?: string;
    deviceName?: string;
    driverId?: string | null;
    ruleName?: string;
    /** Licensed modules; default paid messaging, which SMS and voice actions need. */
    modules?: string[];
    /**
     * Users of the company; default one English main user, so the company's language (for addresses
     * that are no user) is English.
     */
    users?: { email: string; locale: string; roles?: string[]; phone?: string }[];
  } = {},
): Promise<Fixture> {
  const company = await db.query<{ id: number }>(
    `INSERT INTO companies (name, timezone, modules) VALUES ($1, 'Europe/Berlin', $2) RETURNING id`,
    [options.companyName ?? `Company ${randomUUID().slice(0, 8)}`, options.modules ?? ['paid_messaging']],
  );
  const companyId = company.rows[0]!.id;
  const users = options.users ?? [
    { email: `main-${randomUUID().slice(0, 8)}@example.test`, locale: 'en', roles: ['ROLE_MAINUSER'] },
  ];
  for (const user of users) {
    await db.query(
      `INSERT INTO users (company_id, email, name, password_hash, locale, roles, phone)
       VALUES ($1, $2, $2, 'x', $3, $4, $5)`,
      [companyId, user.email, user.locale, user.roles ?? [], user.phone ?? null],
    );
  }
  const deviceUuid = randomUUID();
  const device = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, name, uuid, driver_id) VALUES ($1, $2, $3, $4) RETURNING id`,
    [companyId, options.deviceName ?? 'Tank 7', deviceUuid, options.driverId ?? null],
  );
  const deviceId = device.rows[0]!.id;
  const rule = await db.query<{ id: number }>(
    `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
     VALUES ($1, $2, $3, 'data', 'temperature', 'gte', 30) RETURNING id`,
    [companyId, deviceId, options.ruleName ?? 'Too hot'],
  );
  return { companyId, deviceId, deviceUuid, ruleId: rule.rows[0]!.id };
}

export interface ActionRow {
  type: 'email' | 'sms' | 'voice_message' | 'system' | 'http' | 'remote_control' | 'farming_task';
  recipients?: string[];
  cc?: string[];
  subject?: string | null;
  body?: string | null;
  voiceLanguage?: string | null;
  url?: string | null;
  httpMethod?: 'GET' | 'POST' | 'PUT' | null;
  targetDeviceId?: number | null;
  command?: string | null;
  commandParams?: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

export async function createAction(db: Queryable, fixture: Fixture, action: ActionRow): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO rule_actions (company_id, rule_id, type, recipients, cc, subject, body, voice_language, url,
       http_method, target_device_id, command, command_params, settings)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::jsonb) RETURNING id`,
    [
      fixture.companyId,
      fixture.ruleId,
      action.type,
      action.recipients ?? [],
      action.cc ?? [],
      action.subject ?? null,
      action.body ?? null,
      action.voiceLanguage ?? null,
      action.url ?? null,
      action.httpMethod ?? null,
      action.targetDeviceId ?? null,
      action.command ?? null,
      JSON.stringify(action.commandParams ?? {}),
      JSON.stringify(action.settings ?? {}),
    ],
  );
  return rows[0]!.id;
}

/** A payload as the rules worker builds it: temperature 31.5 at 2026-07-01 12:00 UTC (14:00 CEST). */
export function payloadFor(
  fixture: Fixture,
  actionId: number,
  overrides: Partial<NotifyActionPayload> = {},
): NotifyActionPayload {
  return {
    companyId: fixture.companyId,
    ruleId: fixture.ruleId,
    actionId,
    deviceId: fixture.deviceId,
    alarmId: null,
    uplinkMessageId: randomUUID(),
    field: 'temperature',
    value: 31.5,
    firedAt: '2026-07-01T12:00:00.000Z',
    ...overrides,
  };
}

/** Polls until `check` holds (default 10 s). */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** An ActionContext for calling a channel directly. */
export function testContext(
  overrides: Partial<import('../context').ActionContext> = {},
): import('../context').ActionContext {
  const at = new Date('2026-07-01T12:00:00.000Z');
  return {
    company: { id: 1, name: 'Test', timeZone: 'Europe/Berlin' },
    language: 'en',
    device: { id: 7, uuid: '00000000-0000-4000-8000-000000000007', name: 'Tank "7"' },
    rule: { id: 3, name: 'Too hot' },
    alarmId: null,
    field: 'temperature',
    value: 31.5,
    unit: '°C',
    at,
    time: '2026-07-01 14:00:00 CEST',
    idempotencyKey: '3:m1:9',
    ...overrides,
  };
}
