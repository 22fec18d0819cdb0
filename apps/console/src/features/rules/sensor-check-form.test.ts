import { validateObject } from '@iot/domain';
import { describe, expect, it } from 'vitest';
import { boundsFor, checkToForm, formToCheck, sensorCheckRules } from './sensor-check-form';

describe('sensor check form', () => {
  // Spec section 5: minimum 0 by default, -20 for temperature; maximum 100000 by default, 100 for
  // temperature, 5 for signal_strength.
  it.each([
    ['temperature', '-20', '100'],
    ['signal_strength', '1', '5'],
    ['co2', '0', '100000'],
  ])('bounds of %s are %s to %s', (field, min, max) => {
    expect(boundsFor(field)).toEqual({ min_value: min, max_value: max });
  });

  it.each([
    ['no_data', { max_silence_seconds: '' }, 'max_silence_seconds', 'error.required'],
    ['no_data', { max_silence_seconds: '30' }, 'max_silence_seconds', 'error.min'],
    ['implausible_value', { data_field: '' }, 'data_field', 'error.required'],
    ['battery_low', { level: '120' }, 'level', 'error.range'],
  ])('%s with %j fails on %s (%s)', (kind, change, field, key) => {
    const values = { ...checkToForm(null), kind, ...change } as Record<string, unknown>;
    expect(validateObject(values, sensorCheckRules(values))[field]?.key).toBe(key);
  });

  it('sends only the fields of the kind', () => {
    const base = checkToForm(null);
    expect(formToCheck(base)).toEqual({ kind: 'no_data', max_silence_seconds: 3600, is_active: true });
    expect(formToCheck({ ...base, kind: 'battery_low', level: '15' })).toEqual({
      kind: 'battery_low',
      level: 15,
      data_field: null,
      is_active: true,
    });
    expect(
      formToCheck({
        ...base,
        kind: 'implausible_value',
        data_field: 'temperature',
        min_value: '-20',
        max_value: '',
      }),
    ).toEqual({
      kind: 'implausible_value',
      data_field: 'temperature',
      min_value: -20,
      max_value: null,
      is_active: true,
    });
  });
});
