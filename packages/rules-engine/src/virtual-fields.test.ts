import { describe, expect, it } from 'vitest';
import { evaluateUplinks } from './evaluate-uplinks';
import type { Rule, VirtualField } from './types';
import { computeVirtualFields, prepareVirtualFields, validateVirtualField } from './virtual-fields';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const device = { id: '9', dataFields: ['temperature', 'door_open', 'flow'] };
const T0 = Date.parse('2026-03-02T08:00:00Z');

const field = (
  overrides: Partial<VirtualField> & { id: string; uuid: string; name: string },
): VirtualField => ({
  formula: null,
  function: null,
  mapping: null,
  store: true,
  ...overrides,
});

describe('prepareVirtualFields: catalogue codes', () => {
  it.each([
    ['empty name', field({ id: '1', uuid: A, name: '  ', formula: 'flow' }), 88],
    ['name with braces', field({ id: '1', uuid: A, name: 'a{b}', formula: 'flow' }), 88],
    ['name over 100 characters', field({ id: '1', uuid: A, name: 'x'.repeat(101), formula: 'flow' }), 88],
    ['unknown aggregation function', field({ id: '1', uuid: A, name: 'f', function: 'median' }), 90],
    ['neither formula nor function', field({ id: '1', uuid: A, name: 'f' }), 89],
    ['syntax error', field({ id: '1', uuid: A, name: 'f', formula: 'flow *' }), 89],
    ['unknown field', field({ id: '1', uuid: A, name: 'f', formula: 'pressure' }), 89],
    ['forbidden function', field({ id: '1', uuid: A, name: 'f', formula: 'evaluate(flow)' }), 89],
    ['division by zero', field({ id: '1', uuid: A, name: 'f', formula: 'flow / 0' }), 89],
  ])('%s -> %d', (_name, definition, code) => {
    expect(validateVirtualField(device, definition)?.code).toBe(code);
  });

  it('refuses a mapping key over 100 characters (89, mapping_key_too_long)', () => {
    const mapping = { ['.'.repeat(16_000)]: 'hostile' };
    const error = validateVirtualField(
      device,
      field({ id: '1', uuid: A, name: 'f', formula: 'flow', mapping }),
    );
    expect(error?.code).toBe(89);
    expect(error?.details).toMatchObject({ problem: 'mapping_key_too_long' });
    const fine = { ['1'.repeat(100)]: 'long number', '0..10': 'low' };
    expect(
      validateVirtualField(device, field({ id: '1', uuid: A, name: 'f', formula: 'flow', mapping: fine })),
    ).toBeNull();
  });

  it('refuses a second field of the same name on the device (91)', () => {
    const first = field({ id: '1', uuid: A, name: 'litres', formula: 'flow' });
    const second = field({ id: '2', uuid: B, name: 'litres', formula: 'flow * 2' });
    expect(validateVirtualField(device, second, [first])?.code).toBe(91);
    expect(validateVirtualField(device, first, [first])).toBeNull(); // updating itself is no clash
  });

  it('refuses fields on a cycle with problem "cycle", and orders the others by dependency', () => {
    const plan = prepareVirtualFields(device, [
      field({ id: 'c', uuid: C, name: 'c', formula: `virtual.${B}.b + 1` }),
      field({ id: 'b', uuid: B, name: 'b', formula: `virtual.${A}.a * 2` }),
      field({ id: 'a', uuid: A, name: 'a', formula: 'flow' }),
      field({
        id: 'x',
        uuid: '44444444-4444-4444-8444-444444444444',
        name: 'x',
        formula: 'virtual.55555555-5555-4555-8555-555555555555.y',
      }),
      field({
        id: 'y',
        uuid: '55555555-5555-4555-8555-555555555555',
        name: 'y',
        formula: 'virtual.44444444-4444-4444-8444-444444444444.x',
      }),
    ]);
    expect(plan.fields.map((prepared) => prepared.field.id)).toEqual(['a', 'b', 'c']);
    expect(
      plan.problems.map((problem) => [
        problem.fieldId,
        problem.error.code,
        (problem.error.details as { problem: string }).problem,
      ]),
    ).toEqual([
      ['y', 89, 'cycle'],
      ['x', 89, 'cycle'],
    ]);
  });
});

describe('virtual fields per uplink', () => {
  const fields = [
    field({ id: 'f', uuid: A, name: 'fahrenheit', unit: '°F', formula: 'temperature * 1.8 + 32' }),
    field({ id: 'd', uuid: B, name: 'door', formula: 'door_open', mapping: { '0': 'closed', '1': 'open' } }),
    field({
      id: 'n',
      uuid: C,
      name: 'openings today',
      formula: 'door_open',
      function: 'count_up_daily',
      store: false,
    }),
  ];

  it('stores stored fields (mapped) with the data, keeps unstored ones out, and hands rules the numbers', () => {
    const rule: Rule = {
      id: 'hot',
      trigger: 'data',
      dataField: `virtual.${A}.fahrenheit`,
      operator: 'gte',
      value: 86,
    };
    const opened: Rule = {
      id: 'often',
      trigger: 'data',
      dataField: `virtual.${C}.openings today`,
      operator: 'gte',
      value: 2,
    };
    const result = evaluateUplinks({
      device,
      rules: [rule, opened],
      virtualFields: fields,
      uplinks: [
        { receivedAt: T0, data: { temperature: 20, door_open: true } },
        { receivedAt: T0 + 60_000, data: { temperature: 30, door_open: false } },
        { receivedAt: T0 + 120_000, data: { temperature: 31, door_open: 1 } },
      ],
      now: T0 + 1e9,
    });
    expect(result.derived.map((uplink) => uplink.data)).toEqual([
      { temperature: 20, door_open: true, [`virtual.${A}.fahrenheit`]: 68, [`virtual.${B}.door`]: 'open' },
      { temperature: 30, door_open: false, [`virtual.${A}.fahrenheit`]: 86, [`virtual.${B}.door`]: 'closed' },
      {
        temperature: 31,
        door_open: 1,
        [`virtual.${A}.fahrenheit`]: expect.closeTo(87.8, 10),
        [`virtual.${B}.door`]: 'open',
      },
    ]);
    expect(result.derived.map((uplink) => uplink.virtual[`virtual.${C}.openings today`])).toEqual([1, 1, 2]);
    expect(result.firings.map((firing) => [firing.ruleId, firing.uplinkIndex])).toEqual([
      ['hot', 1],
      ['often', 2],
    ]);
  });

  it('reports a missing input and a non-finite result without a value', () => {
    const result = evaluateUplinks({
      device,
      rules: [],
      virtualFields: [
        field({ id: 'f', uuid: A, name: 'fahrenheit', formula: 'temperature * 1.8 + 32' }),
        field({ id: 'r', uuid: B, name: 'ratio', formula: 'flow / (temperature - temperature)' }),
      ],
      uplinks: [{ receivedAt: T0, data: { flow: 3, temperature: 'n/a' } }],
      now: T0,
    });
    expect(result.derived[0]?.errors).toEqual([
      { field: `virtual.${A}.fahrenheit`, reason: 'missing_input' },
      { field: `virtual.${B}.ratio`, reason: 'missing_input' },
    ]);
    const ratio = evaluateUplinks({
      device,
      rules: [],
      virtualFields: [
        field({ id: 'r', uuid: B, name: 'ratio', formula: 'flow / (temperature - temperature)' }),
      ],
      uplinks: [{ receivedAt: T0, data: { flow: 3, temperature: 2 } }],
      now: T0,
    });
    expect(ratio.derived[0]?.errors).toEqual([{ field: `virtual.${B}.ratio`, reason: 'non_finite' }]);
  });

  it('counts uplinks with a function and no formula', () => {
    const result = evaluateUplinks({
      device,
      rules: [],
      virtualFields: [field({ id: 'u', uuid: A, name: 'uplinks this hour', function: 'count_up_hourly' })],
      uplinks: [0, 600, 3600].map((seconds) => ({ receivedAt: T0 + seconds * 1000, data: {} })),
      now: T0 + 1e9,
    });
    expect(result.derived.map((uplink) => uplink.virtual[`virtual.${A}.uplinks this hour`])).toEqual([
      1, 2, 1,
    ]);
  });

  it('computeVirtualFields (read path) includes unstored fields and returns their next states', () => {
    const first = computeVirtualFields({
      device,
      virtualFields: fields,
      data: { temperature: 25, door_open: 1 },
      at: T0,
    });
    expect(first.data).toEqual({
      [`virtual.${A}.fahrenheit`]: 77,
      [`virtual.${B}.door`]: 'open',
      [`virtual.${C}.openings today`]: 1,
    });
    const second = computeVirtualFields({
      device,
      virtualFields: fields,
      data: { temperature: 25, door_open: 1 },
      at: T0 + 1000,
      states: first.states,
    });
    expect(second.data[`virtual.${C}.openings today`]).toBe(2);
  });
});
