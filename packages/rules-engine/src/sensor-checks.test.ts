import { describe, expect, it } from 'vitest';
import { evaluateSensorChecksOnTimer } from './evaluate-timers';
import { evaluateUplinks } from './evaluate-uplinks';
import { checkBounds } from './sensor-checks';
import type { DeviceState, Rule, SensorCheck } from './types';

const T0 = Date.parse('2026-03-02T08:00:00Z');
const device = { id: '3' };
const summary = (alarms: { action: string; reason: string; value: number | null }[]) =>
  alarms.map((alarm) => `${alarm.action}:${alarm.reason}:${alarm.value}`);

describe('checkBounds (spec section 5 through the domain)', () => {
  it.each([
    ['temperature', -20, 100],
    ['dew_point', -10, 20],
    ['signal_strength', 1, 5],
    ['brightness', 0, 20_000],
    ['water_level_cm', 0, 100_000],
  ])('%s: %d..%d', (dataField, min, max) => {
    expect(checkBounds({ id: 'c', kind: 'implausible_value', dataField })).toEqual({ min, max });
  });

  it('prefers the check own bounds', () => {
    expect(
      checkBounds({ id: 'c', kind: 'implausible_value', dataField: 'temperature', maxValue: 60 }),
    ).toEqual({
      min: -20,
      max: 60,
    });
  });
});

describe('sensor checks on uplinks', () => {
  it.each([
    [
      'implausible temperature',
      { id: 'c', kind: 'implausible_value', dataField: 'temperature' } as SensorCheck,
      [{ temperature: 21 }, { temperature: 120 }, { temperature: 150 }, { humidity: 3 }, { temperature: 99 }],
      ['raise:implausible_value:120', 'clear:value_ok:99'],
    ],
    [
      'at the bound is plausible',
      { id: 'c', kind: 'implausible_value', dataField: 'temperature' } as SensorCheck,
      [{ temperature: -20 }, { temperature: 100 }, { temperature: -20.1 }],
      ['raise:implausible_value:-20.1'],
    ],
    [
      'battery below 20 (battery_level, battery.level)',
      { id: 'c', kind: 'battery_low', minValue: 20 } as SensorCheck,
      [{ battery_level: 25 }, { battery: { level: 19 } }, { battery_level: 15 }, { battery_level: 20 }],
      ['raise:battery_low:19', 'clear:value_ok:20'],
    ],
  ])('%s', (_name, check, datas, expected) => {
    const result = evaluateUplinks({
      device,
      rules: [],
      sensorChecks: [check],
      uplinks: datas.map((data, index) => ({ receivedAt: T0 + index * 60_000, data })),
      now: T0 + 1e9,
    });
    expect(summary(result.alarms)).toEqual(expected);
    expect(result.alarms.every((alarm) => alarm.source.kind === 'sensor_check')).toBe(true);
  });
});

describe('evaluateSensorChecksOnTimer', () => {
  const silence: SensorCheck = { id: 'silence', kind: 'no_data', maxSilenceSeconds: 3600 };
  const quiet: Rule<string> = { id: 'quiet', trigger: 'no_data', timeWindowSeconds: 7200, actions: ['sms'] };

  it('raises no_data once after the silence, and an uplink clears it', () => {
    let states: Partial<DeviceState> = evaluateUplinks({
      device,
      rules: [quiet],
      sensorChecks: [silence],
      uplinks: [{ receivedAt: T0, data: { temperature: 20 } }],
      now: T0,
    }).newStates;
    const tick = (seconds: number) => {
      const result = evaluateSensorChecksOnTimer({
        rules: [quiet],
        sensorChecks: [silence],
        states,
        now: T0 + seconds * 1000,
      });
      states = JSON.parse(JSON.stringify(result.newStates));
      return result;
    };
    expect(tick(3600).alarms).toEqual([]); // exactly the limit is not yet silence
    const late = tick(3601);
    expect(late.alarms.map((alarm) => [alarm.source, alarm.reason, alarm.details.silentSeconds])).toEqual([
      [{ kind: 'sensor_check', sensorCheckId: 'silence' }, 'no_data', 3601],
    ]);
    expect(tick(5000).alarms).toEqual([]); // no second raise while open
    const rule = tick(7201);
    expect(rule.alarms.map((alarm) => alarm.source)).toEqual([{ kind: 'rule', ruleId: 'quiet' }]);
    expect(rule.firings.map((firing) => [firing.ruleId, firing.uplinkIndex, firing.actions])).toEqual([
      ['quiet', null, ['sms']],
    ]);
    expect(tick(9000).firings).toEqual([]); // once per silence

    const back = evaluateUplinks({
      device,
      rules: [quiet],
      sensorChecks: [silence],
      uplinks: [{ receivedAt: T0 + 10_000_000, data: {} }],
      states,
      now: T0 + 10_000_000,
    });
    expect(back.alarms.map((alarm) => [alarm.action, alarm.reason])).toEqual([
      ['clear', 'data_received'],
      ['clear', 'data_received'],
    ]);
    states = back.newStates;
    expect(tick(10_000 + 7201).firings.map((firing) => firing.ruleId)).toEqual(['quiet']); // re-armed
  });

  it('uses the device last_online when the check has not seen an uplink, and nothing without it', () => {
    expect(evaluateSensorChecksOnTimer({ rules: [], sensorChecks: [silence], now: T0 }).alarms).toEqual([]);
    const result = evaluateSensorChecksOnTimer({
      rules: [],
      sensorChecks: [silence],
      lastSeenAt: '2026-03-02T06:00:00Z',
      now: T0,
    });
    expect(result.alarms.map((alarm) => alarm.details.silentSeconds)).toEqual([7200]);
  });

  it('holds a no_data firing back outside the schedule and sends it when the schedule opens', () => {
    const office: Rule = { ...quiet, scheduleStart: '08:00', scheduleEnd: '17:00' };
    // Last heard Monday 2 March 2026 00:00 Berlin; ticks at 05:00 and 09:00 Berlin.
    const lastSeenAt = '2026-03-01T23:00:00Z';
    const early = evaluateSensorChecksOnTimer({
      rules: [office],
      sensorChecks: [],
      lastSeenAt,
      now: '2026-03-02T04:00:00Z',
    });
    expect(early.suppressed.map((item) => item.reason)).toEqual(['schedule']);
    expect(early.alarms.map((alarm) => alarm.action)).toEqual(['raise']);
    const later = evaluateSensorChecksOnTimer({
      rules: [office],
      sensorChecks: [],
      lastSeenAt,
      states: early.newStates,
      now: '2026-03-02T08:00:00Z',
    });
    expect(later.firings.map((firing) => firing.ruleId)).toEqual(['quiet']);
    expect(later.alarms).toEqual([]);
  });
});
