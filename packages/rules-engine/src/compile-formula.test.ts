import { describe, expect, it } from 'vitest';
import { compileFormula, type FormulaProblem } from './compile-formula';

const UUID = '6f1c2c2e-8a4b-4c1d-9e2f-0a1b2c3d4e5f';
const known = new Set([
  'temperature',
  'temperatür',
  'humidity',
  'battery.level',
  'door_open',
  `virtual.${UUID}.total`,
  'Water total',
]);

function evaluate(formula: string, values: Record<string, number>): number | null {
  const result = compileFormula(formula, known);
  if (!result.ok) throw new Error(result.error.message);
  return result.formula.evaluate(result.formula.fields.map((field) => values[field] as number));
}

describe('compileFormula: valid formulas', () => {
  it.each([
    ['temperature * 1.8 + 32', { temperature: 20 }, 68],
    ['round(temperature / 3, 2)', { temperature: 10 }, 3.33],
    ['max(temperature, humidity) - min(temperature, humidity)', { temperature: 20, humidity: 55 }, 35],
    ['battery.level / 100', { 'battery.level': 80 }, 0.8],
    [`virtual.${UUID}.total - 1`, { [`virtual.${UUID}.total`]: 10 }, 9],
    ['{Water total} * 2', { 'Water total': 4 }, 8],
    ['temperature > 30 ? 1 : 0', { temperature: 31 }, 1],
    ['door_open == 1 and temperature < 5', { door_open: 1, temperature: 4 }, 1],
    ['not door_open', { door_open: 0 }, 1],
    ['sqrt(temperature) + abs(-humidity) + 2^3 + 7 mod 4', { temperature: 16, humidity: 1 }, 16],
    ['1e3 * temperature', { temperature: 0.5 }, 500],
    ['2 temperature', { temperature: 3 }, 6], // implicit multiplication
    ['hypot(3, 4) + log10(100) + atan2(0, 1)', {}, 7],
    ['true + 1', {}, 2],
    ['temperatür + 1', { temperatür: 1 }, 2], // names with umlauts
  ])('%s with %j = %d', (formula, values, expected) => {
    expect(evaluate(formula, values)).toBeCloseTo(expected, 12);
  });

  it('lists the fields it reads in order of first appearance', () => {
    const result = compileFormula('humidity + temperature * humidity', known);
    expect(result.ok && result.formula.fields).toEqual(['humidity', 'temperature']);
  });

  it('gives no value for a result that is not a finite number at run time', () => {
    expect(evaluate('temperature / (humidity - humidity)', { temperature: 1, humidity: 2 })).toBeNull();
    expect(evaluate('sqrt(temperature)', { temperature: -1 })).toBeNull();
    expect(evaluate('log(temperature)', { temperature: 0 })).toBeNull();
  });
});

describe('compileFormula: refused formulas (API code 89 with the problem)', () => {
  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    [`temperature${' + 1'.repeat(250)}`, 'too_long'],
    ['temperature +', 'syntax'],
    ['(temperature', 'syntax'],
    ['{temperature', 'syntax'],
    ['pressure * 2', 'unknown_field'],
    [`virtual.${UUID}.other + 1`, 'unknown_field'],
    ['"abc"', 'string_literal'],
    ["temperature'", 'string_literal'],
    ['import(temperature, humidity)', 'forbidden_function'],
    ['createUnit(temperature)', 'forbidden_function'],
    ['evaluate(temperature)', 'forbidden_function'],
    ['parse(temperature)', 'forbidden_function'],
    ['simplify(temperature)', 'forbidden_function'],
    ['derivative(temperature, humidity)', 'forbidden_function'],
    ['resolve(temperature)', 'forbidden_function'],
    ['compile(temperature)', 'forbidden_function'],
    ['sum(temperature)', 'unknown_function'],
    ['foo(1)', 'unknown_function'],
    ['temperature / 0', 'division_by_zero'],
    ['temperature mod (2 - 2)', 'division_by_zero'],
    ['temperature = 1', 'forbidden_construct'],
    ['temperature; humidity', 'forbidden_construct'],
    ['[temperature, humidity]', 'forbidden_construct'],
    ['temperature[1]', 'forbidden_construct'],
    ['f(temperature) = temperature', 'forbidden_construct'],
    ['1:3', 'forbidden_construct'],
    ['temperature!', 'forbidden_construct'],
    ['temperature.level(1)', 'forbidden_construct'],
    ['log(0)', 'non_finite'],
  ] as [string, FormulaProblem][])('%j -> %s', (formula, problem) => {
    const result = compileFormula(formula, known);
    expect(result.ok ? null : result.error.problem).toBe(problem);
  });

  it.each([
    // Sandbox escapes tried without a list of known fields, so the names themselves pass the field check.
    ['f = cos; f.constructor', 'forbidden_construct'],
    ['cos.constructor(1)()', 'forbidden_construct'],
    ['cos("return process")', 'string_literal'],
    ['{}.constructor', 'syntax'],
    ['temperature.constructor', null], // a field named "temperature.constructor": just a name, never a property
    ['constructor(1)', 'forbidden_function'],
    ['e.constructor(1)', 'forbidden_construct'],
    ['(cos)(1)', null], // a field named cos times 1: mathjs reads (a)(b) as a product, never as a call
    ['import', null], // a bare name is a field reference, not the function
  ] as [string, FormulaProblem | null][])('%j -> %s', (formula, problem) => {
    const result = compileFormula(formula);
    expect(result.ok ? null : result.error.problem).toBe(problem);
  });

  it('cannot reach the host even through a field named like a function', () => {
    const result = compileFormula('import');
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.formula.evaluate([5])).toBe(5);
  });
});
