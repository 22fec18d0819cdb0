import { describe, expect, it } from 'vitest';
import { INTERFACE_LANGUAGES } from '../constants/session';
import { FIELD_NAMES } from './catalogue';
import { FIELD_LABELS, fieldLabel, fieldLabelWithUnit } from './labels';

describe('field labels', () => {
  it('label every field of the catalogue in German and English, and nothing else', () => {
    for (const language of INTERFACE_LANGUAGES) {
      expect(Object.keys(FIELD_LABELS[language]).sort()).toEqual([...FIELD_NAMES].sort());
      for (const name of FIELD_NAMES) expect(FIELD_LABELS[language][name]?.trim()).not.toBe('');
    }
  });

  it('words a field in the reader’s language with its unit; virtual fields show their given name', () => {
    expect(fieldLabel('soil_humidity', 'de')).toBe('Bodenfeuchte');
    expect(fieldLabel('soil_humidity', 'en')).toBe('Soil moisture');
    expect(fieldLabel('relay_output_1', 'de')).toBe('Relais 1');
    expect(fieldLabelWithUnit('temperature', 'de')).toBe('Temperatur (°C)');
    expect(fieldLabelWithUnit('temperature', 'en')).toBe('Temperature (°C)');
    expect(fieldLabel('virtual.0b5c7f0e-3a51-4c52-9d51-6b4f1d2c3e4f.Mean tank', 'de')).toBe('Mean tank');
    expect(fieldLabel('alarm.level', 'en')).toBe('alarm.level');
    expect(fieldLabel('constructor', 'en')).toBe('constructor');
    expect(fieldLabelWithUnit('tank_volume', 'de', 'l')).toBe('tank_volume (l)');
  });
});
