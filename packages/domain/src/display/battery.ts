import { BATTERY_THRESHOLDS } from '../constants/session';

/** Battery display buckets (spec section 4), worst last; `off` = no value, `power` = mains powered. */
export const BATTERY_BUCKETS = ['power', 'full', 'medium', 'low', 'empty', 'alert', 'off'] as const;
export type BatteryBucket = (typeof BATTERY_BUCKETS)[number];

/**
 * Reads a battery level from wherever a device or data point carries it: a plain number (or
 * numeric text), or an object with battery_level, level or battery.level (spec section 3).
 */
export function readBatteryLevel(source: unknown): number | null {
  if (typeof source === 'number') return Number.isFinite(source) ? source : null;
  if (typeof source === 'string' && source.trim() !== '') {
    const parsed = Number(source);
    return Number.isFinite(parsed) ? parsed : null;
  }
  if (typeof source !== 'object' || source === null) return null;
  const record = source as Record<string, unknown>;
  for (const candidate of [record.battery_level, record.level, record.battery]) {
    const level = readBatteryLevel(candidate);
    if (level !== null) return level;
  }
  return null;
}

/**
 * Over 80 full, over 50 medium, over 30 low, over 10 empty, 0 to 10 alert, no value off, mains
 * power shown as power (spec section 4). A negative reading is not a level, so it shows as off.
 */
export function batteryBucket(
  level: number | null | undefined,
  options: { mainsPowered?: boolean } = {},
): BatteryBucket {
  if (options.mainsPowered) return 'power';
  if (level === null || level === undefined || !Number.isFinite(level) || level < 0) return 'off';
  if (level > BATTERY_THRESHOLDS.full) return 'full';
  if (level > BATTERY_THRESHOLDS.medium) return 'medium';
  if (level > BATTERY_THRESHOLDS.low) return 'low';
  if (level > BATTERY_THRESHOLDS.empty) return 'empty';
  return 'alert';
}

export function batteryLabelKey(bucket: BatteryBucket): `display.battery.${BatteryBucket}` {
  return `display.battery.${bucket}`;
}
