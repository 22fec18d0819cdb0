import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { EMAIL_RULE, useRulesSuite } from './rules-test-setup';

forEachDb((suite) => {
  const { signIn, world, ruleRows, actionRows } = useRulesSuite(suite);

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

  describe('paid messaging (issue #27)', () => {
    it('refuses SMS and voice actions without the paid messaging module (27); other channels pass', async () => {
      const { device, client } = await world([]);
      for (const action of [
        { channel: 'sms', config: { phone: ['+49 151 23456789'], body: 'Hot' } },
        {
          channel: 'voice_message',
          config: { phone: '+49 761 1234567', message: 'Alarm', language: 'en-GB' },
        },
      ]) {
        const put = await client.put(`/api/v1/core/devices/${device.id}`, {
          rules: [{ ...EMAIL_RULE, actions: [action] }],
        });
        expect([put.status, put.body.code, put.body.details]).toEqual([
          403,
          27,
          { module: 'paid_messaging' },
        ]);
      }
      expect(await ruleRows(device.id)).toEqual([]);
      const mail = await client.put(`/api/v1/core/devices/${device.id}`, { rules: [EMAIL_RULE] });
      expect(mail.status).toBe(200);
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
