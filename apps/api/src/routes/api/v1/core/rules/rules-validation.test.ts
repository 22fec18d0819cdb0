import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { useRulesSuite } from './rules-test-setup';

forEachDb((suite) => {
  const { world, ruleRows } = useRulesSuite(suite);

  describe('rules through PUT /core/devices/{id}', () => {
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
        'http to loopback, private and link-local targets (checked at save, not only at send)',
        {
          trigger: 'no_data',
          time_window_seconds: 60,
          actions: [
            { channel: 'http', config: { url: 'http://127.0.0.1:8080/hook' } },
            { channel: 'http', config: { url: 'http://localhost/hook' } },
            { channel: 'http', config: { url: 'http://[::ffff:10.0.0.5]/x' } },
            { channel: 'http', config: { url: 'http://169.254.169.254/latest/meta-data' } },
          ],
        },
        422,
        422,
        {
          fields: {
            'rules.0.actions.0.url': { key: 'error.private-target' },
            'rules.0.actions.1.url': { key: 'error.private-target' },
            'rules.0.actions.2.url': { key: 'error.private-target' },
            'rules.0.actions.3.url': { key: 'error.private-target' },
          },
        },
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
  });
});
