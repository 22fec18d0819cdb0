import { describe, expect, it } from 'vitest';
import { evaluateUplinks } from './evaluate-uplinks';
import type { DeviceState, Rule, SensorCheck, Uplink, VirtualField } from './types';
import { validateRule } from './validate-rule';

const T0 = Date.parse('2026-10-24T20:00:00Z'); // runs through the autumn DST change
const UUID = '11111111-1111-4111-8111-111111111111';
const device = { id: '1', dataFields: ['temperature', 'flow', 'click_type', 'battery_level'] };
const rules: Rule<string>[] = [
  {
    id: 'a',
    trigger: 'data',
    dataField: 'temperature',
    operator: 'rie',
    value: 25,
    timeWindowSeconds: 600,
    actions: ['mail'],
  },
  {
    id: 'b',
    trigger: 'data',
    dataField: 'temperature',
    operator: 'out',
    rangeMin: 0,
    rangeMax: 30,
    maxActions: 2,
    maxActionsPeriodSeconds: 3600,
  },
  {
    id: 'c',
    trigger: 'data',
    dataField: `virtual.${UUID}.hourly`,
    operator: 'gte',
    value: 3,
    scheduleStart: '22:00',
    scheduleEnd: '06:00',
  },
  { id: 'd', trigger: 'click', clickType: 3, maxClicks: 2 },
];
const virtualFields: VirtualField[] = [
  { id: 'v', uuid: UUID, name: 'hourly', formula: 'flow > 5', function: 'count_up_hourly', store: true },
  {
    id: 'w',
    uuid: '22222222-2222-4222-8222-222222222222',
    name: 'avg',
    formula: 'temperature',
    function: 'moving_average_hourly',
  },
];
const sensorChecks: SensorCheck[] = [{ id: 's', kind: 'implausible_value', dataField: 'temperature' }];

// A fixed pseudo-random series (linear congruential generator), so the test input is the same every run.
function makeUplinks(count: number): Uplink[] {
  let seed = 42;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  return Array.from({ length: count }, (_, index) => ({
    receivedAt: T0 + index * 137_000,
    data: {
      temperature: Math.round((10 + next() * 30) * 10) / 10,
      flow: Math.round(next() * 10),
      ...(next() < 0.2 ? { click_type: [1, 2, 4][Math.floor(next() * 3)] } : {}),
    },
  }));
}

describe('determinism and state round trip', () => {
  const uplinks = makeUplinks(400);
  const options = { device, rules, virtualFields, sensorChecks, uplinks, now: T0 + 1e9 };

  it('gives the same output for the same input', () => {
    const first = evaluateUplinks(options);
    const second = evaluateUplinks(options);
    expect(second).toEqual(first);
    expect(first.firings.length).toBeGreaterThan(5);
    expect(new Set(first.firings.map((firing) => firing.ruleId))).toEqual(new Set(['a', 'b', 'c', 'd']));
  });

  it('gives the same result in one batch as in batches of any size with the state through JSON', () => {
    const whole = evaluateUplinks(options);
    for (const size of [1, 7, 64]) {
      let states: Partial<DeviceState> = {};
      const firings: string[] = [];
      const alarms: string[] = [];
      for (let start = 0; start < uplinks.length; start += size) {
        const result = evaluateUplinks({ ...options, uplinks: uplinks.slice(start, start + size), states });
        firings.push(
          ...result.firings.map((firing) => `${firing.ruleId}@${(firing.uplinkIndex ?? 0) + start}`),
        );
        alarms.push(...result.alarms.map((alarm) => `${alarm.action}@${(alarm.uplinkIndex ?? 0) + start}`));
        states = JSON.parse(JSON.stringify(result.newStates));
      }
      expect(firings).toEqual(whole.firings.map((firing) => `${firing.ruleId}@${firing.uplinkIndex}`));
      expect(alarms).toEqual(whole.alarms.map((alarm) => `${alarm.action}@${alarm.uplinkIndex}`));
      expect(states).toEqual(JSON.parse(JSON.stringify(whole.newStates)));
    }
  });

  it('keeps the state small', () => {
    const result = evaluateUplinks({ ...options, uplinks: makeUplinks(5000) });
    expect(JSON.stringify(result.newStates).length).toBeLessThan(4000);
  });

  it('does not change its inputs', () => {
    const states = JSON.parse(JSON.stringify(evaluateUplinks(options).newStates));
    const frozen = JSON.stringify([states, uplinks, rules]);
    evaluateUplinks({ ...options, states });
    expect(JSON.stringify([states, uplinks, rules])).toBe(frozen);
  });

  it('uses measuredAt unless it lies after now', () => {
    const at = (measuredAt: number) =>
      evaluateUplinks({
        device,
        rules: [rules[1] as Rule<string>],
        uplinks: [{ receivedAt: T0, measuredAt, data: { temperature: 40 } }],
        now: T0 + 1000,
      }).firings[0]?.at;
    expect(at(T0 - 5000)).toBe(T0 - 5000);
    expect(at(T0 + 60_000)).toBe(T0);
  });
});

describe('validateRule (code 78)', () => {
  it.each([
    [{ id: 'x', trigger: 'data', operator: 'gte', value: 1 }, 'data_field'],
    [{ id: 'x', trigger: 'data', dataField: 't', operator: 'between', value: 1 }, 'operator'],
    [{ id: 'x', trigger: 'data', dataField: 't', operator: 'gte' }, 'value'],
    [{ id: 'x', trigger: 'data', dataField: 't', operator: 'in', rangeMin: 5, rangeMax: 1 }, 'range'],
    [{ id: 'x', trigger: 'click', clickType: 8 }, 'click_type'],
    [{ id: 'x', trigger: 'no_data' }, 'time_window'],
    [
      {
        id: 'x',
        trigger: 'data',
        dataField: 't',
        operator: 'gte',
        value: 1,
        scheduleStart: '25:00',
        scheduleEnd: '06:00',
      },
      'schedule_time',
    ],
    [
      { id: 'x', trigger: 'data', dataField: 't', operator: 'gte', value: 1, scheduleStart: '22:00' },
      'schedule_time',
    ],
    [
      { id: 'x', trigger: 'data', dataField: 't', operator: 'gte', value: 1, scheduleWeekdays: [0] },
      'schedule_weekdays',
    ],
    [{ id: 'x', trigger: 'data', dataField: 't', operator: 'gte', value: 1, maxActions: 3 }, 'max_actions'],
    [{ id: 'x', trigger: 'click', clickType: 1, maxClicks: 0 }, 'max_clicks'],
    [
      {
        id: 'x',
        trigger: 'data',
        dataField: 't',
        operator: 'gte',
        value: 1,
        scheduleStart: '22:00',
        scheduleEnd: '06:00',
      },
      null,
    ],
  ] as [Rule, string | null][])('%j -> %s', (rule, problem) => {
    const error = validateRule(rule);
    expect(error ? [error.code, (error.details as { problem: string }).problem] : null).toEqual(
      problem ? [78, problem] : null,
    );
  });
});
