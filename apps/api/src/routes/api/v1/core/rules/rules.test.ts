import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

const EMAIL_RULE = {
  name: 'Too hot',
  trigger: 'data',
  data_field: 'temperature',
  operator: 'gte',
  value: 30,
  time_window_seconds: 300,
  schedule: { start: '08:00', end: '18:00', weekdays: [1, 2, 3, 4, 5] },
  max_actions: 2,
  max_actions_period_seconds: 3600,
  actions: [
    {
      channel: 'email',
      config: {
        recipient: 'ops@example.test',
        cc: 'a@example.test; b@example.test',
        subject: 'Hot',
        body: '{value}',
      },
    },
  ],
};

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

  async function world() {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id);
    const client = await signIn(team.main.email);
    return { team, device, client };
  }

  async function ruleRows(deviceId: number) {
    const { rows } = await suite.db.query<Record<string, unknown>>(
      `SELECT id::int AS id, company_id::int AS company_id, name, trigger, data_field, operator, value, range_min,
              range_max, time_window_seconds, schedule_start::text AS schedule_start, schedule_end::text AS schedule_end,
              schedule_weekdays::int[] AS schedule_weekdays, max_actions, click_type::int AS click_type, state
         FROM rules WHERE device_id = $1 ORDER BY id`,
      [deviceId],
    );
    return rows;
  }

  async function actionRows(ruleId: number) {
    const { rows } = await suite.db.query<Record<string, unknown>>(
      `SELECT type, recipients, cc, subject, body, voice_language, url, http_method, target_device_id::int AS target,
              command, command_params, settings
         FROM rule_actions WHERE rule_id = $1 ORDER BY position`,
      [ruleId],
    );
    return rows;
  }

  describe('rules through PUT /core/devices/{id}', () => {
    it('creates a rule with actions of every channel, shows it on GET, updates it and resets state on a new condition', async () => {
      const { team, device, client } = await world();
      const put = await client.put(`/api/v1/core/devices/${device.id}`, {
        rules: [
          {
            ...EMAIL_RULE,
            actions: [
              ...EMAIL_RULE.actions,
              { channel: 'sms', config: { phone: ['+49 151 23456789'], body: 'Hot {value}' } },
              {
                channel: 'voice_message',
                config: { phone: '+49 761 1234567', message: 'Alarm', language: 'en-GB' },
              },
              { channel: 'system', config: { subject: 'Hot', text: '{device}' } },
              {
                channel: 'http',
                config: {
                  method: 'PUT',
                  url: 'https://hooks.example.test/x',
                  headers: { 'X-Key': 'k' },
                  body: '{}',
                },
              },
              {
                channel: 'remote_control',
                config: { command: 'switch_relay_output', params: { output: 1, on: true } },
              },
            ],
          },
        ],
      });
      expect(put.status).toBe(200);
      const [rule] = put.body.payload.rules;
      expect(rule).toMatchObject({
        name: 'Too hot',
        trigger: 'data',
        data_field: 'temperature',
        operator: 'gte',
        value: 30,
        schedule: { start: '08:00:00', end: '18:00:00', weekdays: [1, 2, 3, 4, 5] },
        max_actions: 2,
        max_actions_period_seconds: 3600,
      });
      expect(rule.actions.map((a: { channel: string }) => a.channel)).toEqual([
        'email',
        'sms',
        'voice_message',
        'system',
        'http',
        'remote_control',
      ]);
      const rows = await ruleRows(device.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ company_id: team.company.id, schedule_weekdays: [1, 2, 3, 4, 5] });
      const actions = await actionRows(rule.id);
      expect(actions[0]).toMatchObject({
        recipients: ['ops@example.test'],
        cc: ['a@example.test', 'b@example.test'],
        subject: 'Hot',
      });
      expect(actions[1]).toMatchObject({ type: 'sms', recipients: ['+49 151 23456789'] });
      expect(actions[2]).toMatchObject({ type: 'voice_message', voice_language: 'en-GB', body: 'Alarm' });
      expect(actions[4]).toMatchObject({
        url: 'https://hooks.example.test/x',
        http_method: 'PUT',
        settings: { headers: { 'X-Key': 'k' } },
      });
      expect(actions[5]).toMatchObject({
        command: 'switch_relay_output',
        command_params: { output: 1, on: true },
        target: device.id,
      });

      const plain = await signIn(team.plain.email);
      const got = await plain.get(`/api/v1/core/devices/${device.id}`);
      expect(got.body.payload.rules).toEqual(put.body.payload.rules);
      expect(got.body.payload.rules_count).toBe(1);

      // A name change keeps the evaluation state; a new threshold resets it and clears the open alarm.
      await suite.db.query(`UPDATE rules SET state = '{"alarmOpen":true}' WHERE id = $1`, [rule.id]);
      await suite.db.query(
        `INSERT INTO alarms (company_id, device_id, rule_id, value) VALUES ($1, $2, $3, 31)`,
        [team.company.id, device.id, rule.id],
      );
      await client.put(`/api/v1/core/devices/${device.id}`, {
        rules: [{ ...EMAIL_RULE, id: rule.id, name: 'Hot' }],
      });
      expect((await ruleRows(device.id))[0]).toMatchObject({ name: 'Hot', state: { alarmOpen: true } });
      const changed = await client.put(`/api/v1/core/devices/${device.id}`, {
        rules: [{ ...EMAIL_RULE, id: rule.id, value: 35, actions: [] }],
      });
      expect(changed.status).toBe(200);
      expect((await ruleRows(device.id))[0]).toMatchObject({ value: 35, state: {} });
      expect(await actionRows(rule.id)).toEqual([]);
      const alarms = await suite.db.query<{ state: string }>('SELECT state FROM alarms WHERE rule_id = $1', [
        rule.id,
      ]);
      expect(alarms.rows).toEqual([{ state: 'cleared' }]);
    });

    it('stores range, click and no-data rules and a rule on a virtual field of the device', async () => {
      const { team, client } = await world();
      const device = await createDevice(suite.db, team.company.id, {
        device_details: { data_fields: ['temperature'] },
      });
      const field = await client.post(`/api/v1/core/devices/${device.id}/virtual_data_fields`, {
        name: 'Fahrenheit',
        formula: 'temperature * 1.8 + 32',
      });
      expect(field.status).toBe(200);
      const res = await client.put(`/api/v1/core/devices/${device.id}`, {
        rules: [
          { trigger: 'data', data_field: 'humidity', operator: 'out', range_min: 30, range_max: 70 },
          { trigger: 'click', click_type: 2, max_clicks: 3 },
          { trigger: 'no_data', time_window_seconds: 3600 },
          { trigger: 'data', data_field: field.body.payload.data_field, operator: 'rie', value: 90 },
        ],
      });
      expect(res.status).toBe(200);
      expect(await ruleRows(device.id)).toMatchObject([
        { trigger: 'data', operator: 'out', range_min: 30, range_max: 70, value: null },
        { trigger: 'click', click_type: 2, data_field: null },
        { trigger: 'no_data', time_window_seconds: 3600 },
        { data_field: field.body.payload.data_field, operator: 'rie' },
      ]);
    });

    // [case, rule, status, code, detail]
    const INVALID: [string, Record<string, unknown>, number, number, unknown][] = [
      [
        'gte without value',
        { trigger: 'data', data_field: 't', operator: 'gte' },
        422,
        78,
        { problem: 'value' },
      ],
      [
        'in without range',
        { trigger: 'data', data_field: 't', operator: 'in', value: 3 },
        422,
        78,
        { problem: 'range' },
      ],
      [
        'range min above max',
        { trigger: 'data', data_field: 't', operator: 'out', range_min: 9, range_max: 1 },
        422,
        78,
        { problem: 'range' },
      ],
      [
        'unknown operator',
        { trigger: 'data', data_field: 't', operator: 'gt', value: 1 },
        422,
        78,
        { problem: 'operator' },
      ],
      [
        'data rule without field',
        { trigger: 'data', operator: 'eq', value: 1 },
        422,
        78,
        { problem: 'data_field' },
      ],
      ['unknown trigger', { trigger: 'sometimes' }, 422, 78, { problem: 'trigger' }],
      [
        'click type 3 (spec: 1, 2, 4)',
        { trigger: 'click', click_type: 3 },
        422,
        78,
        { problem: 'click_type' },
      ],
      ['click type 8', { trigger: 'click', click_type: 8 }, 422, 78, { problem: 'click_type' }],
      ['no_data without window', { trigger: 'no_data' }, 422, 78, { problem: 'time_window' }],
      [
        'max actions without period',
        { trigger: 'no_data', time_window_seconds: 60, max_actions: 2 },
        422,
        78,
        { problem: 'max_actions' },
      ],
      [
        'unknown virtual field',
        {
          trigger: 'data',
          data_field: 'virtual.0b6e4a5c-1f0e-4c1e-9a51-3f2d7c1b2a10.x',
          operator: 'eq',
          value: 1,
        },
        422,
        78,
        { problem: 'data_field' },
      ],
      [
        'schedule start after end (spec 5; no window across midnight)',
        {
          trigger: 'no_data',
          time_window_seconds: 60,
          schedule: { start: '22:00', end: '06:00', weekdays: [1] },
        },
        422,
        422,
        { fields: { 'rules.0.schedule': { key: 'error.schedule-time' } } },
      ],
      [
        'schedule without weekdays',
        {
          trigger: 'no_data',
          time_window_seconds: 60,
          schedule: { start: '08:00', end: '09:00', weekdays: [] },
        },
        422,
        422,
        { fields: { 'rules.0.schedule': { key: 'error.schedule-weekdays' } } },
      ],
      [
        'bad email and cc',
        {
          trigger: 'no_data',
          time_window_seconds: 60,
          actions: [
            {
              channel: 'email',
              config: { recipient: 'not an email', cc: 'x@example.test, nope', subject: 's', body: 'b' },
            },
          ],
        },
        422,
        422,
        {
          fields: {
            'rules.0.actions.0.recipient': { key: 'error.email' },
            'rules.0.actions.0.cc': { key: 'error.email-multiple' },
          },
        },
      ],
      [
        'sms to a landline and a bad number',
        {
          trigger: 'no_data',
          time_window_seconds: 60,
          actions: [{ channel: 'sms', config: { phone: ['+49 761 1234567', '12'], body: 'x' } }],
        },
        422,
        422,
        {
          fields: {
            'rules.0.actions.0.phone.0': { key: 'error.phone-mobile' },
            'rules.0.actions.0.phone.1': { key: 'error.phone' },
          },
        },
      ],
      [
        'voice without message, bad language',
        {
          trigger: 'no_data',
          time_window_seconds: 60,
          actions: [{ channel: 'voice_message', config: { phone: '+49 761 1234567', language: 'german' } }],
        },
        422,
        422,
        {
          fields: {
            'rules.0.actions.0.message': { key: 'error.required' },
            'rules.0.actions.0.language': { key: 'error.unknown' },
          },
        },
      ],
      [
        'http to a non-http URL with a bad method',
        {
          trigger: 'no_data',
          time_window_seconds: 60,
          actions: [{ channel: 'http', config: { url: 'file:///etc/passwd', method: 'DELETE' } }],
        },
        422,
        422,
        {
          fields: {
            'rules.0.actions.0.url': { key: 'error.unknown' },
            'rules.0.actions.0.method': { key: 'error.unknown' },
          },
        },
      ],
      [
        'remote control: unknown command',
        {
          trigger: 'no_data',
          time_window_seconds: 60,
          actions: [{ channel: 'remote_control', config: { command: 'self_destruct' } }],
        },
        422,
        422,
        { fields: { 'rules.0.actions.0.command': { key: 'error.unknown' } } },
      ],
      [
        'remote control: relay output 3 (relays 1..2)',
        {
          trigger: 'no_data',
          time_window_seconds: 60,
          actions: [
            {
              channel: 'remote_control',
              config: { command: 'switch_relay_output', params: { output: 3, on: true } },
            },
          ],
        },
        422,
        422,
        { fields: { 'rules.0.actions.0.params.output': { key: 'error.range', params: { min: 1, max: 2 } } } },
      ],
      [
        'unknown channel',
        { trigger: 'no_data', time_window_seconds: 60, actions: [{ channel: 'pigeon' }] },
        422,
        422,
        { fields: { 'rules.0.actions.0.channel': { key: 'error.unknown' } } },
      ],
    ];

    it.each(INVALID)('refuses %s and writes nothing', async (_case, rule, status, code, details) => {
      const { device, client } = await world();
      const res = await client.put(`/api/v1/core/devices/${device.id}`, {
        name: 'Must not change',
        rules: [rule],
      });
      expect([res.status, res.body.code]).toEqual([status, code]);
      expect(res.body.details).toMatchObject(details as object);
      expect(await ruleRows(device.id)).toEqual([]);
      const { rows } = await suite.db.query<{ name: string }>('SELECT name FROM devices WHERE id = $1', [
        device.id,
      ]);
      expect(rows[0]!.name).not.toBe('Must not change');
    });

    it('answers 50 for a rule id of another device, 10 for a remote-control target of another company', async () => {
      const { team, device, client } = await world();
      const otherDevice = await createDevice(suite.db, team.company.id);
      const first = await client.put(`/api/v1/core/devices/${otherDevice.id}`, { rules: [EMAIL_RULE] });
      const foreignRuleId = first.body.payload.rules[0].id;
      const res = await client.put(`/api/v1/core/devices/${device.id}`, {
        rules: [{ ...EMAIL_RULE, id: foreignRuleId, value: 1 }],
      });
      expect([res.status, res.body.code]).toEqual([404, 50]);
      expect((await ruleRows(otherDevice.id))[0]).toMatchObject({ value: 30 });

      const stranger = await createTeam(suite.db);
      const strangerDevice = await createDevice(suite.db, stranger.company.id);
      const target = await client.put(`/api/v1/core/devices/${device.id}`, {
        rules: [
          {
            trigger: 'no_data',
            time_window_seconds: 60,
            actions: [
              {
                channel: 'remote_control',
                config: { command: 'reboot', target_device_id: strangerDevice.id },
              },
            ],
          },
        ],
      });
      expect([target.status, target.body.code]).toEqual([404, 10]);
      expect(await ruleRows(device.id)).toEqual([]);
    });

    it('is for ROLE_ADMIN and ROLE_MAINUSER (90004) and the own company (10); CSRF is enforced (77)', async () => {
      const { team, device } = await world();
      const plain = await signIn(team.plain.email);
      const refused = await plain.put(`/api/v1/core/devices/${device.id}`, { rules: [EMAIL_RULE] });
      expect([refused.status, refused.body.code]).toEqual([403, 90004]);
      const admin = await signIn(team.admin.email);
      expect((await admin.put(`/api/v1/core/devices/${device.id}`, { rules: [EMAIL_RULE] })).status).toBe(
        200,
      );
      const stranger = await createTeam(suite.db);
      const other = await signIn(stranger.main.email);
      const foreign = await other.put(`/api/v1/core/devices/${device.id}`, { rules: [EMAIL_RULE] });
      expect([foreign.status, foreign.body.code]).toEqual([404, 10]);
      const noCsrf = await admin.put(
        `/api/v1/core/devices/${device.id}`,
        { rules: [EMAIL_RULE] },
        { csrf: false },
      );
      expect([noCsrf.status, noCsrf.body.code]).toEqual([419, 77]);
      expect(await ruleRows(device.id)).toHaveLength(1);
    });
  });

  describe('DELETE /core/devices/{device_id}/rules/{rule_id}', () => {
    it('deletes the rule with its actions; 50 for unknown, 10 and nothing deleted for another company', async () => {
      const { team, device, client } = await world();
      const created = await client.put(`/api/v1/core/devices/${device.id}`, {
        rules: [EMAIL_RULE, EMAIL_RULE],
      });
      const [a, b] = created.body.payload.rules;
      const stranger = await createTeam(suite.db);
      const other = await signIn(stranger.main.email);
      const foreign = await other.delete(`/api/v1/core/devices/${device.id}/rules/${a.id}`);
      expect([foreign.status, foreign.body.code]).toEqual([404, 10]);
      const plain = await signIn(team.plain.email);
      expect((await plain.delete(`/api/v1/core/devices/${device.id}/rules/${a.id}`)).body.code).toBe(90004);
      const res = await client.delete(`/api/v1/core/devices/${device.id}/rules/${a.id}`);
      expect(res.status).toBe(200);
      expect(res.body.payload).toEqual({ id: a.id });
      expect((await ruleRows(device.id)).map((r) => r.id)).toEqual([b.id]);
      expect(await actionRows(a.id)).toEqual([]);
      const again = await client.delete(`/api/v1/core/devices/${device.id}/rules/${a.id}`);
      expect([again.status, again.body.code]).toEqual([404, 50]);
    });
  });
});
