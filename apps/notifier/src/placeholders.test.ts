import { describe, expect, it } from 'vitest';
import { fillJsonPlaceholders, fillPlaceholders } from './placeholders';
import { testContext } from './test-support/fixtures';

describe('placeholders', () => {
  it('writes numbers as the reader does, without grouping; strings and booleans as they are', () => {
    const de = testContext({ language: 'de', value: 12345.625 });
    expect(fillPlaceholders('{field} {value} {unit}', de)).toBe('Temperatur 12345,625 °C');
    expect(fillPlaceholders('{value}', testContext({ language: 'en', value: 12345.625 }))).toBe('12345.625');
    expect(fillPlaceholders('{value}', testContext({ language: 'de', value: true }))).toBe('true');
    expect(fillPlaceholders('{value}', testContext({ language: 'de', value: null }))).toBe('');
  });

  it('keeps a webhook body JSON: numbers as JavaScript writes them, strings escaped', () => {
    const ctx = testContext({ language: 'de', value: 31.5 });
    const body = fillJsonPlaceholders('{"device": "{device}", "value": {value}, "other": {"x": 1}}', ctx);
    expect(JSON.parse(body)).toEqual({ device: 'Tank "7"', value: 31.5, other: { x: 1 } });
  });
});
