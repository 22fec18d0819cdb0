import { validateObject } from '@iot/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { languageReady, setLanguage } from '../../lib/i18n';
import {
  actionErrors,
  commandErrors,
  emptyConfig,
  formToRule,
  ruleFormRules,
  ruleToForm,
  splitPhones,
} from './rule-form';

// Labels are asserted in English; the console starts in the fallback language (German) otherwise.
beforeAll(async () => {
  setLanguage('en');
  await languageReady();
});

const base = () => ({ ...ruleToForm(null), name: 'Cold room', data_field: 'temperature', value: '8' });
const errorsOf = (values: ReturnType<typeof base>) =>
  validateObject(values as unknown as Record<string, unknown>, ruleFormRules(values as never));

describe('rule form', () => {
  it('a new rule starts without actions, so nothing blocks saving it (issue #30)', () => {
    const form = ruleToForm(null);
    expect(form.actions).toEqual([]);
    expect(form.actions.some((a) => Object.keys(actionErrors(a)).length > 0)).toBe(false);
    expect(formToRule(base(), null).actions).toEqual([]);
  });

  it('a data rule gte 8 becomes the API body with its value and no range or click fields', () => {
    const body = formToRule({ ...base(), operator: 'gte' }, null);
    expect(body).toMatchObject({
      trigger: 'data',
      data_field: 'temperature',
      operator: 'gte',
      value: 8,
      range_min: null,
      range_max: null,
      click_type: null,
      schedule: null,
    });
    expect(body).not.toHaveProperty('id');
  });

  it.each([
    ['in', { range_min: '2', range_max: '8' }, { value: null, range_min: 2, range_max: 8 }],
    ['out', { range_min: '-1,5', range_max: '4' }, { value: null, range_min: -1.5, range_max: 4 }],
    ['rie', { value: '7,5' }, { value: 7.5, range_min: null }],
  ])('operator %s sends %j as %j', (operator, input, expected) => {
    expect(formToRule({ ...base(), operator, ...input }, 3)).toMatchObject({ id: 3, ...expected });
  });

  it.each([
    ['a missing value', { value: '' }, 'value', 'error.required'],
    ['a value that is no number', { value: 'abc' }, 'value', 'error.decimal'],
    [
      'a range without its end (in)',
      { operator: 'in', range_min: '1', range_max: '' },
      'range_max',
      'error.required',
    ],
    ['a negative time window', { time_window_seconds: '-5' }, 'time_window_seconds', 'error.min'],
    ['max actions 0', { max_actions: '0' }, 'max_actions', 'error.min'],
    [
      'a schedule ending before it starts',
      { schedule_enabled: true, schedule: { start: '18:00', end: '08:00', weekdays: [1] } },
      'schedule',
      'error.schedule-time',
    ],
    [
      'a schedule without weekdays',
      { schedule_enabled: true, schedule: { start: '08:00', end: '18:00', weekdays: [] } },
      'schedule',
      'error.schedule-weekdays',
    ],
  ])('%s is an error on %s', (_name, change, field, key) => {
    expect(errorsOf({ ...base(), ...change } as ReturnType<typeof base>)[field]?.key).toBe(key);
  });

  it('a valid data rule and a valid schedule have no errors', () => {
    const values = {
      ...base(),
      schedule_enabled: true,
      schedule: { start: '08:00', end: '18:00', weekdays: [1, 5] },
    };
    expect(errorsOf(values)).toEqual({});
    expect(formToRule(values, null).schedule).toEqual({ start: '08:00', end: '18:00', weekdays: [1, 5] });
  });

  it('a click rule sends the click type (double 2) and ignores the data condition', () => {
    const body = formToRule({ ...base(), trigger: 'click', click_type: '2', max_clicks: '3' }, null);
    expect(body).toMatchObject({
      click_type: 2,
      max_clicks: 3,
      data_field: null,
      operator: null,
      value: null,
    });
  });
});

describe('rule actions', () => {
  it.each([
    [
      'email without recipient',
      { channel: 'email', config: { recipient: '', subject: 's', body: 'b' } },
      'recipient',
      'error.required',
    ],
    [
      'email with a bad cc list',
      { channel: 'email', config: { recipient: 'a@b.de', cc: 'x@y.de, nope', subject: 's', body: 'b' } },
      'cc',
      'error.email-multiple',
    ],
    [
      'sms without numbers',
      { channel: 'sms', config: { phone: ' ; ', body: 'hi' } },
      'phone',
      'error.required',
    ],
    [
      'sms to a number that is no phone',
      { channel: 'sms', config: { phone: '+4915112345678, 12', body: 'hi' } },
      'phone',
      'error.phone',
    ],
    [
      'system without text',
      { channel: 'system', config: { subject: 's', text: '' } },
      'text',
      'error.required',
    ],
    ['http to ftp', { channel: 'http', config: { method: 'POST', url: 'ftp://x' } }, 'url', 'error.url'],
    [
      'relay output 3 (relays 1 and 2)',
      {
        channel: 'remote_control',
        config: { command: 'switch_relay_output', params: { output: 3, on: true } },
      },
      'params.output',
      'error.range',
    ],
  ])('%s: %s', (_name, action, field, key) => {
    expect(actionErrors(action)[field]?.key).toBe(key);
  });

  it.each([
    {
      channel: 'email',
      config: {
        recipient: 'ops@demo.test',
        cc: 'a@demo.test; b@demo.test',
        subject: 'Alarm {device}',
        body: '{field} {value} {unit}',
      },
    },
    { channel: 'sms', config: { phone: '+4915112345678\n+4917012345678', body: 'Alarm' } },
    { channel: 'remote_control', config: { command: 'set_reporting_interval', params: { minutes: '15' } } },
  ])('valid %j has no errors', (action) => {
    expect(actionErrors(action)).toEqual({});
  });

  it('sms numbers go as a list when there are several; command params as numbers', () => {
    expect(splitPhones('+491511; +491701\n')).toEqual(['+491511', '+491701']);
    const body = formToRule(
      {
        ...base(),
        actions: [
          { channel: 'remote_control', config: { command: 'reset_counter', params: { counter: '2' } } },
        ],
      },
      null,
    );
    expect(body.actions[0]?.config).toEqual({ command: 'reset_counter', params: { counter: 2 } });
    expect(commandErrors('', {})).toEqual({ command: { key: 'error.required' } });
  });
});

describe('stored actions in the form', () => {
  it('SMS numbers one per line, the voice number as text, the command target kept on save', () => {
    const stored = {
      id: 7,
      device_id: 1,
      name: 'r',
      is_active: true,
      trigger: 'data',
      data_field: 'temperature',
      operator: 'gte',
      value: 8,
      range_min: null,
      range_max: null,
      time_window_seconds: 0,
      schedule: { start: '06:00:00', end: '22:00:00', weekdays: [1, 2] },
      max_actions: null,
      max_actions_period_seconds: null,
      click_type: null,
      max_clicks: null,
      last_fired_at: null,
      actions: [
        { id: 1, channel: 'sms', config: { phone: ['+4915112345678', '+4917012345678'], body: 'b' } },
        {
          id: 2,
          channel: 'voice_message',
          config: { phone: ['+4915112345678'], message: 'm', language: 'de-DE' },
        },
        { id: 3, channel: 'remote_control', config: { command: 'reboot', params: {}, target_device_id: 9 } },
      ],
    };
    const form = ruleToForm(stored);
    expect(form.schedule).toEqual({ start: '06:00', end: '22:00', weekdays: [1, 2] });
    expect(form.schedule_enabled).toBe(true);
    expect(form.actions.map((a) => a.config.phone)).toEqual([
      '+4915112345678\n+4917012345678',
      '+4915112345678',
      undefined,
    ]);
    expect(form.actions.map(actionErrors)).toEqual([{}, {}, {}]);
    const body = formToRule(form, 7);
    expect(body.actions.map((a) => a.config)).toEqual([
      { phone: ['+4915112345678', '+4917012345678'], body: 'b' },
      { phone: '+4915112345678', message: 'm', language: 'de-DE' },
      { command: 'reboot', params: {}, target_device_id: 9 },
    ]);
  });
});

describe('device field options', () => {
  it('lists the known fields once, labelled by metadata or the catalogue, then the virtual fields by name and unit', async () => {
    const { deviceFieldOptions } = await import('./device-fields');
    const options = deviceFieldOptions(
      {
        id: 1,
        name: 'Cold room',
        state: 'ok',
        is_active: true,
        device_details: { data_fields: ['temperature', { name: 'humidity' }] },
        metadata: { data_fields: [{ data_field: 'temperature', label: 'Temp', sort: 1 }] },
        data: { temperature: 4, battery_level: 90, 'virtual.6f1c3c3e-0000-4000-8000-000000000001.f': 39 },
      },
      [
        {
          id: 5,
          device_id: 1,
          uuid: '6f1c3c3e-0000-4000-8000-000000000001',
          name: 'f',
          data_field: 'virtual.6f1c3c3e-0000-4000-8000-000000000001.f',
          unit: '°F',
          formula: 'temperature * 1.8 + 32',
          function: null,
          mapping: {},
          store: true,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        },
      ],
    );
    expect(options).toEqual([
      { value: 'battery_level', label: 'Battery level (battery_level)' },
      { value: 'humidity', label: 'Humidity (humidity)' },
      { value: 'temperature', label: 'Temp (temperature)' },
      { value: 'virtual.6f1c3c3e-0000-4000-8000-000000000001.f', label: 'f [°F]' },
    ]);
  });
});

describe('farming task action', () => {
  it('needs a title and whole hours, sends the hours as a number and keeps stored fields', () => {
    const empty = { channel: 'farming_task', config: emptyConfig('farming_task') };
    expect(actionErrors(empty)).toEqual({ title: { key: 'error.required' } });
    expect(
      actionErrors({ channel: 'farming_task', config: { title: 'Beregnen', due_in_hours: '1,5' } })
        .due_in_hours,
    ).toBeDefined();
    expect(
      actionErrors({ channel: 'farming_task', config: { title: 'Beregnen', due_in_hours: null } }),
    ).toEqual({});
    const body = formToRule(
      {
        ...base(),
        actions: [
          {
            channel: 'farming_task',
            config: { title: 'Beregnen', task_type: 'irrigation', due_in_hours: '24', field_ids: [4] },
          },
          { channel: 'farming_task', config: { title: 'Kontrolle', task_type: 'custom', due_in_hours: '' } },
        ],
      },
      null,
    );
    expect(body.actions).toEqual([
      {
        channel: 'farming_task',
        config: { title: 'Beregnen', task_type: 'irrigation', due_in_hours: 24, field_ids: [4] },
      },
      { channel: 'farming_task', config: { title: 'Kontrolle', task_type: 'custom', due_in_hours: null } },
    ]);
  });
});
