import { describe, expect, it } from 'vitest';
import { nestDataFields } from './nest-fields';

describe('nestDataFields', () => {
  it('gives a codec’s nested data back its shape: objects and arrays', () => {
    expect(
      nestDataFields({
        temperature: 21.5,
        'alarm.level': 2,
        'alarm.on': true,
        'history.0.t': 20,
        'history.1.t': 21,
        'geo.0': 52.5,
        'geo.1': 13.4,
      }),
    ).toEqual({
      temperature: 21.5,
      alarm: { level: 2, on: true },
      history: [{ t: 20 }, { t: 21 }],
      geo: [52.5, 13.4],
    });
  });

  it('keeps a flat record as it is, and names that cannot nest flat', () => {
    const flat = { temperature: 1, humidity: 2 };
    expect(nestDataFields(flat)).toBe(flat);
    const virtual = 'virtual.0b5c7f0e-3a51-4c52-9d51-6b4f1d2c3e4f.mean.of.two';
    expect(nestDataFields({ [virtual]: 3, 'a..b': 1, alarm: 1, 'alarm.level': 2, 'x.__proto__': 5 })).toEqual(
      {
        [virtual]: 3,
        'a..b': 1,
        alarm: 1,
        'alarm.level': 2,
        x: { ['__proto__']: 5 },
      },
    );
  });

  it('keeps an object whose keys are not exactly 0..n-1 an object', () => {
    expect(nestDataFields({ 'slots.1': 'a', 'slots.2': 'b' })).toEqual({ slots: { 1: 'a', 2: 'b' } });
  });
});
