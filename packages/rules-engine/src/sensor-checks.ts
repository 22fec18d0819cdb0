import { fieldBounds, readBatteryLevel } from '@iot/domain';
import { readValue } from './read-value';
import type { AlarmDecision, SensorCheck, SensorCheckState, UplinkData } from './types';

function decision(
  check: SensorCheck,
  action: 'raise' | 'clear',
  uplinkIndex: number | null,
  at: number,
  value: number | null,
  reason: string,
  details: Record<string, unknown>,
): AlarmDecision {
  return {
    action,
    source: { kind: 'sensor_check', sensorCheckId: check.id },
    uplinkIndex,
    at,
    dataField: check.dataField ?? null,
    value,
    reason,
    details,
  };
}

/** Bounds of an implausible-value check: its own, else the domain's bounds for the field (spec section 5). */
export function checkBounds(check: SensorCheck): { min: number; max: number } {
  const defaults = fieldBounds(check.dataField ?? '');
  return { min: check.minValue ?? defaults.min, max: check.maxValue ?? defaults.max };
}

/**
 * A sensor check on one uplink:
 * - no_data: the uplink is a sign of life; an open silence alarm clears (`data_received`).
 * - implausible_value: a value outside [min, max] raises (`implausible_value`), one inside clears.
 * - battery_low: the battery level (the check's field, else battery_level / level / battery.level)
 *   below minValue raises (`battery_low`); at or above clears. No hysteresis.
 * An uplink without the value changes nothing. One open alarm per check: no second raise while open.
 */
export function evaluateSensorCheck(
  check: SensorCheck,
  prior: SensorCheckState,
  index: number,
  at: number,
  data: UplinkData,
  virtual: Readonly<Record<string, number>>,
): { state: SensorCheckState; alarm?: AlarmDecision } {
  if (check.kind === 'no_data') {
    const state: SensorCheckState = { lastSeenAt: Math.max(at, prior.lastSeenAt ?? at) };
    if (!prior.alarmOpen) return { state };
    return {
      state,
      alarm: decision(check, 'clear', index, at, null, 'data_received', {
        silentSince: prior.lastSeenAt ?? null,
      }),
    };
  }
  let value: number | null;
  let bad: boolean;
  let details: Record<string, unknown>;
  if (check.kind === 'battery_low') {
    value = check.dataField
      ? (virtual[check.dataField] ?? readValue(data, check.dataField))
      : readBatteryLevel(data);
    const level = check.minValue ?? 0;
    bad = value !== null && value < level;
    details = { level };
  } else {
    const field = check.dataField ?? '';
    value = virtual[field] ?? readValue(data, field);
    const bounds = checkBounds(check);
    bad = value !== null && (value < bounds.min || value > bounds.max);
    details = bounds;
  }
  if (value === null) return { state: prior };
  if (bad && !prior.alarmOpen)
    return {
      state: { ...prior, alarmOpen: true },
      alarm: decision(check, 'raise', index, at, value, check.kind, details),
    };
  if (!bad && prior.alarmOpen)
    return {
      state: { ...prior, alarmOpen: false },
      alarm: decision(check, 'clear', index, at, value, 'value_ok', details),
    };
  return { state: prior };
}

/**
 * A no_data check on the timer: silence longer than maxSilenceSeconds since the last uplink raises
 * `no_data`. `lastSeenAt` (the device's last_online) stands in when the check has not seen an uplink
 * yet; a device never heard of raises nothing.
 */
export function evaluateSilence(
  check: SensorCheck,
  prior: SensorCheckState,
  now: number,
  lastSeenAt: number | undefined,
): { state: SensorCheckState; alarm?: AlarmDecision } {
  if (check.kind !== 'no_data' || !check.maxSilenceSeconds || prior.alarmOpen) return { state: prior };
  const seen = prior.lastSeenAt ?? lastSeenAt;
  if (seen === undefined || now - seen <= check.maxSilenceSeconds * 1000) return { state: prior };
  return {
    state: { ...prior, lastSeenAt: seen, alarmOpen: true },
    alarm: decision(check, 'raise', null, now, null, 'no_data', {
      lastSeenAt: seen,
      silentSeconds: Math.floor((now - seen) / 1000),
      maxSilenceSeconds: check.maxSilenceSeconds,
    }),
  };
}
