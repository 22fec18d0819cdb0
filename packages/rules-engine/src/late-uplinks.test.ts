import { describe, expect, it } from 'vitest';
import { evaluateSensorChecksOnTimer } from './evaluate-timers';
import { evaluateUplinks } from './evaluate-uplinks';
import type { DeviceState, Rule, SensorCheck, Uplink, VirtualField } from './types';

// Monday 2 March 2026 10:00 UTC: away from any DST change.
const T0 = Date.parse('2026-03-02T10:00:00Z');
const MIN = 60_000;
const device = { id: '9', dataFields: ['temperature', 'flow', 'click_type'] };
const coldRoom: Rule<string> = {
  id: 'warm',
  trigger: 'data',
  dataField: 'temperature',
  operator: 'gte',
  value: 8,
  actions: ['mail'],
};

/** An uplink measured `measured` minutes and received `received` minutes after T0. */
function uplink(measured: number, received: number, data: Record<string, unknown>): Uplink {
  return {
    measuredAt: new Date(T0 + measured * MIN).toISOString(),
    receivedAt: new Date(T0 + received * MIN).toISOString(),
    data,
  };
}

/** Runs the uplinks in one call, or one call per uplink with the states through JSON (as persisted). */
function run(
  uplinks: Uplink[],
  options: { rules?: Rule<string>[]; virtualFields?: VirtualField[]; split?: boolean } = {},
) {
  const batches = options.split ? uplinks.map((u) => [u]) : [uplinks];
  let states: Partial<DeviceState> = {};
  const fired: number[] = [];
  const suppressed: string[] = [];
  const alarms: string[] = [];
  const late: ({ lastAt: number; evaluatedAt: number } | undefined)[] = [];
  const derived: Record<string, unknown>[] = [];
  let offset = 0;
  for (const batch of batches) {
    const result = evaluateUplinks({
      device,
      rules: options.rules ?? [coldRoom],
      virtualFields: options.virtualFields,
      uplinks: batch,
      states,
      now: T0 + 86_400_000,
    });
    for (const f of result.firings) fired.push(f.uplinkIndex! + offset);
    for (const s of result.suppressed) suppressed.push(`${s.uplinkIndex! + offset}:${s.reason}`);
    for (const a of result.alarms) alarms.push(`${a.uplinkIndex! + offset}:${a.action}`);
    for (const d of result.derived) {
      late.push(d.late);
      derived.push(d.data);
    }
    states = JSON.parse(JSON.stringify(result.newStates));
    offset += batch.length;
  }
  return { fired, suppressed, alarms, late, derived, states };
}

describe('uplinks older than the last one evaluated (late, or a device clock that stepped back)', () => {
  // The device's clock steps back an hour after the second uplink (a firmware sending local time,
  // a real-time clock reset): its later uplinks are all older than the last one the rule saw.
  const stepBack = [
    uplink(0, 0, { temperature: 5 }),
    uplink(10, 10, { temperature: 9 }), // fires
    uplink(-40, 20, { temperature: 5 }), // ends the episode
    uplink(-30, 30, { temperature: 9 }), // a new episode: fires again
    uplink(-20, 40, { temperature: 9 }), // still in it
  ];

  it.each([
    ['one batch', false],
    ['one batch per uplink', true],
  ])('keep the rule firing after a clock step back (%s)', (_name, split) => {
    const result = run(stepBack, { split });
    expect(result.fired).toEqual([1, 3]);
    expect(result.alarms).toEqual(['1:raise', '2:clear', '3:raise']);
    expect(result.suppressed).toEqual(['4:not_edge']);
    // Evaluated at their receipt, each later than the rule's last time; reported per uplink.
    expect(result.late).toEqual([
      undefined,
      undefined,
      { lastAt: T0 + 10 * MIN, evaluatedAt: T0 + 20 * MIN },
      { lastAt: T0 + 20 * MIN, evaluatedAt: T0 + 30 * MIN },
      { lastAt: T0 + 30 * MIN, evaluatedAt: T0 + 40 * MIN },
    ]);
  });

  it('times the firing and the alarm at the evaluation time, not before the episode it ends', () => {
    const result = evaluateUplinks({
      device,
      rules: [coldRoom],
      uplinks: stepBack.slice(0, 4),
      now: T0 + 86_400_000,
    });
    expect(result.firings.map((f) => f.at - T0)).toEqual([10 * MIN, 30 * MIN]);
    expect(result.alarms.map((a) => a.at - T0)).toEqual([10 * MIN, 20 * MIN, 30 * MIN]);
  });

  it('a reading delivered late still ends its episode, at the last time when its receipt is older', () => {
    // Received before the last uplink was (another ingest process appended it later), measured earlier.
    const result = run(
      [uplink(0, 0, { temperature: 9 }), uplink(2, 3, { temperature: 9 }), uplink(1, 2, { temperature: 5 })],
      { split: true },
    );
    expect(result.fired).toEqual([0]);
    expect(result.alarms).toEqual(['0:raise', '2:clear']);
    expect(result.late[2]).toEqual({ lastAt: T0 + 2 * MIN, evaluatedAt: T0 + 2 * MIN });
  });

  it('time windows run on while the clock is behind (receipt, not a frozen last time)', () => {
    const windowed: Rule<string> = { ...coldRoom, id: 'long', timeWindowSeconds: 600 };
    const result = run(
      [
        uplink(0, 0, { temperature: 5 }),
        // The clock now reads two hours behind and does not catch up within the test.
        uplink(-110, 10, { temperature: 9 }),
        uplink(-100, 15, { temperature: 9 }),
        uplink(-90, 20, { temperature: 9 }),
      ],
      { rules: [windowed], split: true },
    );
    expect(result.suppressed).toEqual(['1:time_window', '2:time_window']);
    expect(result.fired).toEqual([3]);
  });

  it('a click from a clock that stepped back still counts', () => {
    const button: Rule<string> = { id: 'b', trigger: 'click', clickType: 1, actions: ['sms'] };
    const result = run([uplink(0, 0, { click_type: 1 }), uplink(-60, 1, { click_type: 1 })], {
      rules: [button],
      split: true,
    });
    expect(result.fired).toEqual([0, 1]);
  });

  it('aggregation functions take a late reading at its evaluation time instead of dropping it', () => {
    const meter: VirtualField[] = [
      {
        id: 'total',
        uuid: '33333333-3333-4333-8333-333333333333',
        name: 'total',
        formula: 'flow',
        function: 'sum_up',
        store: true,
      },
      {
        id: 'diff',
        uuid: '44444444-4444-4444-8444-444444444444',
        name: 'diff',
        formula: 'flow',
        function: 'diff_to_last',
        store: true,
      },
      {
        id: 'hourly',
        uuid: '55555555-5555-4555-8555-555555555555',
        name: 'hourly',
        formula: 'flow > 0',
        function: 'count_up_hourly',
        store: true,
      },
    ];
    const key = (field: VirtualField) => `virtual.${field.uuid}.${field.name}`;
    const result = run(
      [
        uplink(0, 0, { flow: 2 }),
        uplink(50, 50, { flow: 3 }),
        uplink(45, 70, { flow: 4 }), // late, received in the next hour: counts there
      ],
      { virtualFields: meter, split: true },
    );
    expect(result.derived.map((d) => d[key(meter[0]!)])).toEqual([2, 5, 9]);
    expect(result.derived.map((d) => d[key(meter[1]!)])).toEqual([undefined, 1, 1]);
    expect(result.derived.map((d) => d[key(meter[2]!)])).toEqual([1, 2, 1]);
    expect(result.late[2]).toEqual({ lastAt: T0 + 50 * MIN, evaluatedAt: T0 + 70 * MIN });
  });
});

describe('silence is judged by receipt', () => {
  const silence: SensorCheck = { id: 's', kind: 'no_data', maxSilenceSeconds: 1800 };
  const quiet: Rule<string> = { id: 'q', trigger: 'no_data', timeWindowSeconds: 1800, actions: ['sms'] };

  it('a device whose clock lags two hours is not taken for silent while it reports', () => {
    let states: Partial<DeviceState> = {};
    for (let minute = 0; minute <= 60; minute += 10) {
      const result = evaluateUplinks({
        device,
        rules: [quiet],
        sensorChecks: [silence],
        uplinks: [uplink(minute - 120, minute, { temperature: 5 })],
        states,
        now: T0 + minute * MIN,
      });
      states = result.newStates;
      const tick = evaluateSensorChecksOnTimer({
        rules: [quiet],
        sensorChecks: [silence],
        states,
        now: T0 + (minute + 5) * MIN,
      });
      expect(tick.alarms).toEqual([]);
      expect(tick.firings).toEqual([]);
      states = tick.newStates;
    }
    // Once it really falls silent, the timer notices after the limit.
    const later = evaluateSensorChecksOnTimer({
      rules: [quiet],
      sensorChecks: [silence],
      states,
      now: T0 + 91 * MIN,
    });
    expect(later.firings.map((f) => f.ruleId)).toEqual(['q']);
    expect(later.alarms.map((a) => a.action)).toEqual(['raise', 'raise']);
  });
});
