import { beforeAll, describe, expect, it } from 'vitest';
import { languageReady, setLanguage } from '../../lib/i18n';
import { availableFields, fieldLabel } from './widget-fields';

// Labels are asserted in English; the console starts in the fallback language (German) otherwise.
beforeAll(async () => {
  setLanguage('en');
  await languageReady();
});

describe('availableFields', () => {
  it('latest value keys and metadata fields of the devices, virtual ones included, without coordinates', () => {
    expect(
      availableFields([
        {
          id: 1,
          name: 'a',
          state: 'ok',
          is_active: true,
          data: { temperature: 1, latitude: 48, 'virtual.x.dew': 2 },
        },
        {
          id: 2,
          name: 'b',
          state: 'ok',
          is_active: true,
          data: { humidity: 40 },
          metadata: { data_fields: [{ data_field: 'co2', label: 'CO2', sort: 1 }] },
        },
      ]),
    ).toEqual(['co2', 'humidity', 'temperature', 'virtual.x.dew']);
  });
});

describe('fieldLabel', () => {
  it.each([
    ['temperature', 'Temperature'],
    ['soil_humidity', 'Soil moisture'],
    ['tank_volume', 'tank_volume'],
    ['virtual.0b6e3f3c-8f5a-4b8e-9a57-2f0d2b1f7c11.dew_point', 'dew_point'],
  ])('%s is shown as %s', (field, label) => {
    expect(fieldLabel(field)).toBe(label);
  });
});
