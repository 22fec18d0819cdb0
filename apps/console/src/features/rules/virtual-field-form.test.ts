import { validateObject } from '@iot/domain';
import { describe, expect, it } from 'vitest';
import {
  formToVirtualField,
  parseMapping,
  VIRTUAL_FIELD_RULES,
  virtualFieldToForm,
} from './virtual-field-form';

describe('virtual field form', () => {
  it.each([
    ['double_temp', undefined],
    ['', 'error.required'],
    ['x'.repeat(101), 'error.maxlength'],
  ])('name %j -> %s', (name, key) => {
    expect(validateObject({ name }, VIRTUAL_FIELD_RULES).name?.key).toBe(key);
  });

  it.each([
    ['0=closed\n1=open', { '0': 'closed', '1': 'open' }],
    ['..0=frost\n0..10 = cold\n30..=hot', { '..0': 'frost', '0..10': 'cold', '30..': 'hot' }],
    ['true=2\nno equals sign', { true: 2 }],
    ['', null],
  ])('mapping %j -> %j', (text, expected) => {
    expect(parseMapping(text)).toEqual(expected);
  });

  it('a stored field round-trips through the form (empty unit and function become null)', () => {
    const form = virtualFieldToForm({
      id: 1,
      device_id: 2,
      uuid: 'u',
      name: 'fahrenheit',
      data_field: 'virtual.u.fahrenheit',
      unit: '°F',
      formula: 'temperature * 1.8 + 32',
      function: null,
      mapping: { '..32': 'frost' },
      store: false,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    expect(formToVirtualField(form)).toEqual({
      name: 'fahrenheit',
      unit: '°F',
      formula: 'temperature * 1.8 + 32',
      function: null,
      mapping: { '..32': 'frost' },
      store: false,
    });
    expect(formToVirtualField({ ...form, unit: ' ', function: 'sum_up' })).toMatchObject({
      unit: null,
      function: 'sum_up',
    });
  });
});
