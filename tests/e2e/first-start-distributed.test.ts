/**
 * An operator's first hour with the distributed profile (issue #29), following README "Distributed
 * profile" as written: a PostgreSQL database that does not exist yet, each app its own process
 * (`node apps/<app>/dist/main.js`), `npm run admin:create -- --email` for the first super admin, who signs
 * in through the printed one-time link, creates a client whose main user is invited by mail, signs in,
 * imports a device, gives it a rule with an email action and sends a warm uplink: the email arrives at an
 * SMTP server started here. The apps get their own NATS, Redis and Mosquitto (tests/support/own-services):
 * they run with the default stream, queue and share-group names an operator's deployment uses.
 */
import { randomBytes } from 'node:crypto';
import { readMail, startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api-session.js';
import { type AppProcess, startApp } from '../support/app-process.js';
import {
  freePort,
  type OwnService,
  startOwnMosquitto,
  startOwnNats,
  startOwnRedis,
} from '../support/own-services.js';
import { waitFor } from '../support/wait-for.js';

const SERVER = 'postgres://postgres@127.0.0.1:5432';
const PASSWORD = 'First-Start#2026x';
const database = `iot_first_start_${randomBytes(4).toString('hex')}`;

let smtp: TestSmtp;
const services: OwnService[] = [];
const apps: AppProcess[] = [];
let env: Record<string, string>;
let apiUrl: string;
let ingestUrl: string;
const healthPorts = new Map<string, number>();

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** `npm run admin:create -- --email <email>` with the deployment's environment. */
async function adminCreate(email: string): Promise<{ code: number | null; output: string }> {
  const run = startApp(
    'admin:create',
    ['run', '--silent', 'admin:create', '--', '--email', email],
    env,
    'npm',
  );
  const code = await run.exited;
  return { code, output: run.output() };
}

function tokenOf(text: string): string {
  const token = /\/login\/reset-password\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no reset link in ${text}`);
  return token;
}

async function choosePassword(token: string): Promise<void> {
  const anon = new ApiSession(apiUrl);
  await anon.csrf();
  const reset = await anon.call('POST', '/api/v1/auth/reset-password', {
    token,
    password: PASSWORD,
    password_confirmation: PASSWORD,
  });
  expect(reset.status).toBe(200);
}

async function signIn(email: string): Promise<ApiSession> {
  const session = new ApiSession(apiUrl);
  expect((await session.login(email, PASSWORD)).status).toBe(200);
  return session;
}

async function mailTo(address: string, subject: RegExp) {
  return waitFor(`a mail to ${address}`, 60_000, async () => {
    const mail = smtp.received.find((m) => m.to.includes(address) && subject.test(readMail(m).subject));
    return mail ? readMail(mail) : undefined;
  });
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  const [nats, redis, mosquitto] = await Promise.all([startOwnNats(), startOwnRedis(), startOwnMosquitto()]);
  services.push(nats, redis, mosquitto);
  const apiPort = await freePort();
  const ingestPort = await freePort();
  apiUrl = `http://127.0.0.1:${apiPort}`;
  ingestUrl = `http://127.0.0.1:${ingestPort}/ingest/v1`;
  env = {
    PROFILE: 'distributed',
    DATABASE_URL: `${SERVER}/${database}`,
    NATS_URL: nats.url,
    REDIS_URL: redis.url,
    MQTT_URL: mosquitto.url,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    INGEST_PORT: String(ingestPort),
    PUBLIC_URL: apiUrl,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'IoT Platform <alarms@first-start.test>',
    DEMO_DATA: 'false',
    LOG_LEVEL: 'info',
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  for (const service of services) await service.stop();
  await smtp?.close();
  await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

describe('first start of the distributed profile, as the README says', () => {
  it('creates the database, the first admin by command, and carries an uplink to an alarm email', async () => {
    // node apps/api/dist/main.js: the database does not exist yet; the API creates and migrates it.
    const api = startApp('api', ['apps/api/dist/main.js'], env);
    apps.push(api);
    await api.waitForOutput(/Server listening at/);
    for (const [name, main] of [
      ['ingest', 'apps/ingest/dist/main.js'],
      ['rules-worker', 'apps/rules-worker/dist/main.js'],
      ['notifier', 'apps/notifier/dist/main.js'],
    ] as const) {
      const healthPort = await freePort();
      healthPorts.set(name, healthPort);
      apps.push(
        startApp(name, [...(name === 'ingest' ? ['--max-semi-space-size=64'] : []), main], {
          ...env,
          HEALTH_PORT: String(healthPort),
        }),
      );
    }

    // npm run admin:create -- --email: a one-time link; never a second super admin.
    const first = await adminCreate('root@first-start.test');
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`${apiUrl}/login/reset-password/`);
    const again = await adminCreate('second@first-start.test');
    expect(again.code).toBe(1);
    expect(again.output).toContain('a super admin exists already (root@first-start.test)');

    await choosePassword(tokenOf(first.output));
    const admin = await signIn('root@first-start.test');
    const client = await admin.call<{ id: number }>('POST', '/api/v1/admin/clients', {
      name: 'Kühlhaus Nord GmbH',
      modules: [],
      main_user: { email: 'main@kuehlhaus.test', name: 'Kim Kühl', locale: 'en' },
    });
    expect(client.status, JSON.stringify(client.body)).toBe(200);

    // The invitation arrives at the SMTP server; its link sets the main user's password.
    const invitation = await mailTo('main@kuehlhaus.test', /Invitation/);
    await choosePassword(tokenOf(invitation.text));
    const main = await signIn('main@kuehlhaus.test');

    const imported = await main.send(
      'POST',
      '/api/v1/core/devices/import',
      'name,serial_number\nFreezer 1,FZ-0001\n',
      'text/csv',
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const list = await main.call<{ id: number; uuid: string; name: string }[]>('GET', '/api/v1/core/devices');
    const device = list.body.payload?.find((d) => d.name === 'Freezer 1');
    if (!device) throw new Error(`the imported device is not listed: ${JSON.stringify(list.body)}`);
    const rules = await main.call('PUT', `/api/v1/core/devices/${device.id}`, {
      rules: [
        {
          name: 'Freezer too warm',
          trigger: 'data',
          data_field: 'temperature',
          operator: 'gte',
          value: -10,
          actions: [
            {
              channel: 'email',
              config: {
                recipient: 'alerts@kuehlhaus.test',
                subject: 'Freezer too warm',
                body: 'now {value} degrees',
              },
            },
          ],
        },
      ],
    });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    const credentials = await main.call<{ token: string }>(
      'POST',
      `/api/v1/core/devices/${device.id}/credentials`,
    );
    const token = credentials.body.payload?.token ?? '';
    expect(token).not.toBe('');

    // Each worker app is ready on its HEALTH_PORT once its database, log or queue answer.
    const expectedChecks: Record<string, string[]> = {
      ingest: ['database', 'event_log', 'migrations', 'started'],
      'rules-worker': ['database', 'event_log', 'job_queue', 'migrations', 'started'],
      notifier: ['database', 'job_queue', 'migrations', 'started'],
    };
    for (const [name, port] of healthPorts) {
      const ready = await waitFor(`${name} ready`, 60_000, async () => {
        const res = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
        return res?.status === 200
          ? ((await res.json()) as { checks: Record<string, { ok: boolean }> })
          : undefined;
      });
      expect(Object.keys(ready.checks).sort(), name).toEqual(expectedChecks[name]);
      const metricsText = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metricsText, name).toContain('process_resident_memory_bytes');
    }
    const apiReady = await fetch(`${apiUrl}/health/ready`);
    expect(apiReady.status).toBe(200);
    const uplink = await fetch(`${ingestUrl}/uplinks/${device.uuid}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ temperature: -4.5 }),
    });
    expect(uplink.status).toBe(202);

    const alarm = await mailTo('alerts@kuehlhaus.test', /Freezer too warm/);
    expect(alarm.text).toContain('now -4.5 degrees');
    // The rule worker counted its firing where Prometheus would scrape it.
    const workerMetrics = await (
      await fetch(`http://127.0.0.1:${healthPorts.get('rules-worker')}/metrics`)
    ).text();
    expect(workerMetrics).toMatch(/^iot_rule_firings_total 1$/m);
  }, 240_000);
});

describe('a database the API may not create', () => {
  it('stops the API with one line that says what to do', async () => {
    const role = `iot_no_createdb_${randomBytes(3).toString('hex')}`;
    await adminQuery(`CREATE ROLE ${role} LOGIN NOCREATEDB`);
    try {
      const api = startApp('api', ['apps/api/dist/main.js'], {
        ...env,
        DATABASE_URL: `postgres://${role}@127.0.0.1:5432/${database}_missing`,
      });
      expect(await api.exited).toBe(1);
      const lines = api.output().trim().split('\n');
      expect(lines).toEqual([
        `database "${database}_missing" does not exist and could not be created (${role} may not create it): create it (createdb -O ${role} ${database}_missing) or give ${role} CREATEDB, then start again`,
      ]);
    } finally {
      await adminQuery(`DROP ROLE ${role}`);
    }
  }, 60_000);
});
