import { describe, expect, it } from 'vitest';
import { BATTERY_BUCKETS } from '../display/battery';
import { BOOLEAN_LABEL_KEYS, NO_DATA_KEY } from '../display/format-value';
import { LAST_ONLINE_BUCKETS } from '../display/last-online';
import { SOIL_MOISTURE_CLASSES } from '../display/soil-moisture';
import { UV_INDEX_CLASSES } from '../display/uv-index';
import { BEAUFORT_NAMES, WIND_DIRECTIONS } from '../display/wind';
import { ERROR_DEFINITIONS } from '../errors/catalogue';
import { errorToast } from '../errors/error-toast';
import { VEHICLE_CLASSES } from '../fields/catalogue';
import { VALIDATION_ERROR_KEYS } from '../validation/rule-sets';
import { domainMessage, domainMessages, flattenMessages } from './messages';

const flat = { en: flattenMessages(domainMessages.en), de: flattenMessages(domainMessages.de) };

describe('domain messages', () => {
  it('has exactly the same keys in de and en', () => {
    expect(Object.keys(flat.de).sort()).toEqual(Object.keys(flat.en).sort());
  });

  it('has no empty text', () => {
    for (const language of ['en', 'de'] as const) {
      for (const [key, text] of Object.entries(flat[language])) expect(text.trim(), key).not.toBe('');
    }
  });

  it('uses the same placeholders in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(flat.en))
      expect(placeholders(flat.de[key] ?? ''), key).toEqual(placeholders(text));
  });

  it.each(ERROR_DEFINITIONS.map((d) => d.code))('has api.response-%i in en and de', (code) => {
    expect(flat.en[`api.response-${code}`]).toBeTruthy();
    expect(flat.de[`api.response-${code}`]).toBeTruthy();
  });

  it.each(VALIDATION_ERROR_KEYS)('has %s in en and de', (key) => {
    expect(flat.en[key]).toBeTruthy();
    expect(flat.de[key]).toBeTruthy();
  });

  it('interpolates bounds in the bound messages', () => {
    for (const key of ['error.range', 'error.min', 'error.password-minlength', 'error.minlength']) {
      expect(flat.en[key]).toContain('{{min}}');
    }
    expect(flat.en['error.required']).toBe('Required information. Please fill in.');
  });

  it('has every display label', () => {
    const keys = [
      ...BATTERY_BUCKETS.map((b) => `display.battery.${b}`),
      ...LAST_ONLINE_BUCKETS.map((b) => `display.last-online.${b}`),
      ...SOIL_MOISTURE_CLASSES.map((c) => `display.soil.${c}`),
      ...UV_INDEX_CLASSES.map((c) => `display.uv.${c}`),
      ...BEAUFORT_NAMES.map((n) => `display.beaufort.${n}`),
      ...WIND_DIRECTIONS.map((d) => `display.wind-direction.${d}`),
      ...VEHICLE_CLASSES.map((c) => `display.vehicle-class.${c}`),
      ...Object.values(BOOLEAN_LABEL_KEYS).flat(),
      NO_DATA_KEY,
    ];
    for (const key of keys) expect(flat.en[key], key).toBeTruthy();
  });

  it('keeps the spec texts of section 8', () => {
    expect(flat.de['message.action-failed']).toBe('Die Aktion konnte nicht ausgeführt werden.');
    expect(flat.en['message.unknown-error']).toBe(
      'Oops. We are so sorry. An unknown error occurred. Try reloading the page. Sometimes it helps.',
    );
  });

  it('fills placeholders and leaves unknown keys undefined', () => {
    expect(domainMessage('en', 'error.range', { min: 1, max: 5 })).toBe('Please enter a value from 1 to 5.');
    expect(domainMessage('de', 'api.response-10')).toBe('Gerät nicht gefunden.');
    expect(domainMessage('en', 'no.such.key')).toBeUndefined();
  });
});

describe('errorToast (spec section 8)', () => {
  it.each([
    [404, { code: 10, message: 'x' }, 'en', 'Error 404', 'Device not found.'],
    [404, { code: 10 }, 'de', 'Fehler 404', 'Gerät nicht gefunden.'],
    [500, { code: 99999, message: 'Server said no' }, 'en', 'Error 500', 'Server said no'],
    [500, {}, 'en', 'Error 500', flat.en['message.unknown-error']],
    [502, null, 'de', 'Fehler 502', flat.de['message.unknown-error']],
  ] as const)('%i %j in %s -> %s / %s', (status, body, language, summary, detail) => {
    expect(errorToast(status, body, language)).toEqual({ severity: 'error', summary, detail, life: 10_000 });
  });

  it('shows no toast for code 76 (not logged in)', () => {
    expect(errorToast(401, { code: 76 }, 'en')).toBeNull();
  });
});
