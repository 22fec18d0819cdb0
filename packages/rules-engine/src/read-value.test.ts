import { describe, expect, it } from 'vitest';
import { readValue } from './read-value';

describe('readValue', () => {
  const data = {
    temperature: 21.5,
    open: true,
    closed: false,
    text: 'abc',
    numeric: ' 12.5 ',
    empty: '',
    nothing: null,
    nan: Number.NaN,
    battery: { level: 80 },
    'virtual.6f1c2c2e-8a4b-4c1d-9e2f-0a1b2c3d4e5f.total': 3,
  };
  it.each([
    ['temperature', 21.5],
    ['open', 1],
    ['closed', 0],
    ['text', null],
    ['numeric', 12.5],
    ['empty', null],
    ['nothing', null],
    ['nan', null],
    ['missing', null],
    ['battery', null],
    ['battery.level', 80],
    ['battery.volts', null],
    ['virtual.6f1c2c2e-8a4b-4c1d-9e2f-0a1b2c3d4e5f.total', 3],
  ])('%s -> %s', (field, expected) => {
    expect(readValue(data, field)).toBe(expected);
  });
});
