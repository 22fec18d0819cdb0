import { describe, expect, it } from 'vitest';
import { evaluateUplinks } from './evaluate-uplinks';
import type { DeviceState, Rule, Uplink } from './types';

// Monday 2 March 2026 08:00 UTC (09:00 in Berlin): an ordinary weekday away from any DST change.
const T0 = Date.UTC(2026, 2, 2, 8, 0, 0);
const device = { id: '7', dataFields: ['temperature', 'click_type', 'battery_level'] };

function rule(overrides: Partial<Rule<string>>): Rule<string> {
  return { id: 'r1', trigger: 'data', dataField: 'temperature', actions: ['mail'], ...overrides };
}

function uplinks(series: readonly (readonly [number, unknown])[], field = 'temperature'): Uplink[] {
  return series.map(([seconds, value]) => ({ receivedAt: T0 + seconds * 1000, data: { [field]: value } }));
}

/** Runs the series (in one call, or one call per uplink when split) and reports what happened where. */
function run(
  ruleDef: Rule<string>,
  series: readonly (readonly [number, unknown])[],
  split = false,
  field = 'temperature',
) {
  const all = uplinks(series, field);
  const fired: number[] = [];
  const suppressed: string[] = [];
  const alarms: string[] = [];
  let states: Partial<DeviceState> = {};
  const batches = split ? all.map((uplink) => [uplink]) : [all];
  let offset = 0;
  for (const batch of batches) {
    const result = evaluateUplinks({
      device,
      rules: [ruleDef],
      uplinks: batch,
      states,
      now: T0 + 86_400_000,
    });
    for (const firing of result.firings) fired.push((firing.uplinkIndex ?? 0) + offset);
    for (const item of result.suppressed)
      suppressed.push(`${(item.uplinkIndex ?? 0) + offset}:${item.reason}`);
    for (const alarm of result.alarms) alarms.push(`${(alarm.uplinkIndex ?? 0) + offset}:${alarm.action}`);
    // Through JSON, as the worker persists it.
    states = JSON.parse(JSON.stringify(result.newStates));
    offset += batch.length;
  }
  return { fired, suppressed, alarms };
}

describe('operators on a series (once per episode)', () => {
  it.each([
    // operator, threshold, values at 0, 60, 120, ... s; indexes that fire
    ['gte', 30, [25, 30, 31, 29, 35], [1, 4]],
    ['gte', 30, [31, 32], [0]], // a level operator fires on the first value already
    ['lte', 5, [6, 5, 4, 6, 5], [1, 4]],
    ['eq', 1, [0, 1, 1, 0, 1], [1, 4]],
    ['eq', 1, [false, true, true, false], [1]], // booleans are 1 / 0
    ['rie', 30, [31, 35, 29, 30, 31, 29, 40], [3, 6]], // first value above: no crossing; exactly 30 from below fires
    ['rie', 30, [30, 31], []], // first value at the threshold does not count, nor does leaving it upwards
    ['fae', 10, [9, 11, 10, 9, 12, 5], [2, 5]],
    ['fae', 10, [10, 9], []],
  ] as const)('%s %d over %j fires at %j', (operator, value, values, expected) => {
    const series = values.map((v, index) => [index * 60, v] as const);
    expect(run(rule({ operator, value }), series).fired).toEqual(expected);
  });

  it.each([
    ['in', [5, 10, 15, 20, 25, 20], [1, 5]],
    ['out', [15, 9, 5, 10, 21, 20], [1, 4]],
  ] as const)('%s 10..20 over %j fires at %j', (operator, values, expected) => {
    const series = values.map((v, index) => [index * 60, v] as const);
    expect(run(rule({ operator, rangeMin: 10, rangeMax: 20 }), series).fired).toEqual(expected);
  });

  it('says why rie did not fire: first value, then not an edge', () => {
    const result = run(rule({ operator: 'rie', value: 30 }), [
      [0, 31],
      [60, 32],
      [120, 29],
    ]);
    expect(result.fired).toEqual([]);
    expect(result.suppressed).toEqual(['0:first_value', '1:not_edge']);
  });

  it('ignores uplinks without a numeric value: they neither hold nor break the episode', () => {
    const result = run(rule({ operator: 'gte', value: 30, timeWindowSeconds: 120 }), [
      [0, 31],
      [60, 'n/a'],
      [90, null],
      [120, 32],
    ]);
    expect(result.fired).toEqual([3]);
  });
});

describe('time window', () => {
  const windowed = rule({ operator: 'gte', value: 30, timeWindowSeconds: 300 });
  it.each([
    [
      'holds for the window: fires once at 300 s',
      [
        [0, 31],
        [120, 32],
        [300, 33],
        [420, 34],
      ],
      [2],
      ['0:time_window', '1:time_window', '3:not_edge'],
    ],
    [
      'breaks before the window: no firing',
      [
        [0, 31],
        [120, 29],
        [240, 31],
        [480, 31],
      ],
      [],
      ['0:time_window', '2:time_window', '3:time_window'],
    ],
    [
      're-arms after it stops holding',
      [
        [0, 31],
        [300, 31],
        [360, 20],
        [400, 31],
        [700, 31],
      ],
      [1, 4],
      ['0:time_window', '3:time_window'],
    ],
  ] as const)('%s', (_name, series, fired, suppressed) => {
    for (const split of [false, true]) {
      const result = run(windowed, series, split);
      expect(result.fired).toEqual(fired);
      expect(result.suppressed).toEqual(suppressed);
    }
  });

  it('applies to rie after the crossing', () => {
    const result = run(rule({ operator: 'rie', value: 30, timeWindowSeconds: 60 }), [
      [0, 20],
      [30, 31],
      [90, 32],
      [120, 10],
      [150, 31],
      [180, 31],
    ]);
    expect(result.fired).toEqual([2]);
  });
});

describe('alarms', () => {
  it('raises once per episode and clears when it ends, with the triggering value', () => {
    const ruleDef = rule({ operator: 'gte', value: 30, timeWindowSeconds: 60 });
    const result = evaluateUplinks({
      device,
      rules: [ruleDef],
      uplinks: uplinks([
        [0, 31],
        [60, 32],
        [120, 33],
        [180, 20],
        [240, 19],
      ]),
      now: T0 + 86_400_000,
    });
    expect(
      result.alarms.map((alarm) => [alarm.action, alarm.uplinkIndex, alarm.value, alarm.reason]),
    ).toEqual([
      ['raise', 1, 32, 'temperature gte 30 (value 32)'],
      ['clear', 3, 20, 'condition_ended'],
    ]);
    expect(result.alarms[0]?.source).toEqual({ kind: 'rule', ruleId: 'r1' });
    expect(result.newStates.rules.r1?.alarmOpen).toBeUndefined();
  });

  it('keeps several rules of a device open at once and raises no duplicate across calls', () => {
    const rules = [
      rule({ id: 'hot', operator: 'gte', value: 30 }),
      rule({ id: 'very-hot', operator: 'gte', value: 40 }),
    ];
    const first = evaluateUplinks({ device, rules, uplinks: uplinks([[0, 45]]), now: T0 + 1e9 });
    const second = evaluateUplinks({
      device,
      rules,
      uplinks: uplinks([[60, 46]]),
      states: JSON.parse(JSON.stringify(first.newStates)),
      now: T0 + 1e9,
    });
    expect(first.alarms.map((alarm) => alarm.source)).toEqual([
      { kind: 'rule', ruleId: 'hot' },
      { kind: 'rule', ruleId: 'very-hot' },
    ]);
    expect(second.alarms).toEqual([]);
  });

  it('raises the alarm even when the schedule holds the notification back', () => {
    // Monday 09:00 Berlin; the rule may only notify 22:00-06:00.
    const result = evaluateUplinks({
      device,
      rules: [rule({ operator: 'gte', value: 30, scheduleStart: '22:00', scheduleEnd: '06:00' })],
      uplinks: uplinks([[0, 31]]),
      now: T0 + 1e9,
    });
    expect(result.alarms.map((alarm) => alarm.action)).toEqual(['raise']);
    expect(result.firings).toEqual([]);
    expect(result.suppressed.map((item) => item.reason)).toEqual(['schedule']);
  });
});

describe('max actions (sliding window)', () => {
  // eq 1 on a toggling value: an episode on every other uplink, one every 20 minutes.
  const toggles = Array.from({ length: 12 }, (_, index) => [index * 600, index % 2 === 0 ? 1 : 0] as const);
  it.each([
    // maxActions, period s, indexes that fire
    [3, 3600, [0, 2, 4, 6, 8, 10]], // 3 per hour at one every 20 min: never more than 3 in any hour
    [2, 3600, [0, 2, 6, 8]], // at 40 min the limit is reached; 0 leaves the window at 60 min (exclusive)
    [1, 3000, [0, 6]], // index 6 (3600 s) is the first with the firing at 0 out of the window
  ])('at most %d per %d s', (maxActions, period, expected) => {
    const result = run(
      rule({ operator: 'eq', value: 1, maxActions, maxActionsPeriodSeconds: period }),
      toggles,
      true,
    );
    expect(result.fired).toEqual(expected);
    expect(result.suppressed.every((item) => item.endsWith('max_actions'))).toBe(true);
  });

  it('fires a held-back episode once the period rolls over while it still holds', () => {
    const result = run(rule({ operator: 'gte', value: 30, maxActions: 1, maxActionsPeriodSeconds: 600 }), [
      [0, 31],
      [60, 20],
      [120, 31],
      [300, 31],
      [660, 31],
      [720, 31],
    ]);
    expect(result.fired).toEqual([0, 4]);
    expect(result.suppressed).toEqual(['2:max_actions', '3:max_actions', '5:not_edge']);
  });
});

describe('click rules', () => {
  const click = (overrides: Partial<Rule<string>>) =>
    rule({ trigger: 'click', dataField: null, clickType: 1, ...overrides });
  it.each([
    // rule click type (mask), uplink click types, fired indexes
    [1, [1, 2, 4, 1], [0, 3]],
    [2, [1, 2, 4], [1]],
    [4, [1, 2, 4], [2]],
    [3, [1, 2, 4], [0, 1]], // single or double
  ])('click type %d on %j fires at %j', (clickType, types, expected) => {
    const series = types.map((type, index) => [index * 10, type] as const);
    const result = run(click({ clickType }), series, false, 'click_type');
    expect(result.fired).toEqual(expected);
    expect(result.suppressed.every((item) => item.endsWith('click_type'))).toBe(true);
  });

  it('max clicks: fires on the third matching click, then counts again', () => {
    const series = [1, 1, 2, 1, 1, 1].map((type, index) => [index * 10, type] as const);
    const result = run(click({ maxClicks: 3 }), series, true, 'click_type');
    expect(result.fired).toEqual([3]);
    expect(result.suppressed).toEqual([
      '0:max_clicks',
      '1:max_clicks',
      '2:click_type',
      '4:max_clicks',
      '5:max_clicks',
    ]);
    expect(run(click({ maxClicks: 3 }), [...series, [60, 1]], true, 'click_type').fired).toEqual([3, 6]);
  });

  it('max clicks within the period: clicks older than the period drop out', () => {
    const series = [
      [0, 1],
      [30, 1],
      [100, 1], // the click at 0 is more than 60 s old: only 2 count
      [120, 1], // 30 is out, 100 and 120 count: 2
      [130, 1], // 100, 120, 130: fires
    ] as const;
    const result = run(
      click({ maxClicks: 3, maxActions: 10, maxActionsPeriodSeconds: 60 }),
      series,
      true,
      'click_type',
    );
    expect(result.fired).toEqual([4]);
  });

  it('ignores uplinks without a click type', () => {
    expect(run(click({}), [[0, 21]], false, 'temperature')).toEqual({
      fired: [],
      suppressed: [],
      alarms: [],
    });
  });
});
