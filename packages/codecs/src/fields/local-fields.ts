import { CLICK_TYPES } from '@iot/domain';
import type { LocalField } from './accept-value.js';

/** Button click type: single 1, double 2, long 4 (spec sections 3 and 9). */
export const CLICK_TYPE: LocalField = {
  name: 'click_type',
  min: 1,
  max: 4,
  values: Object.values(CLICK_TYPES),
};
/** Clicks since the counter was last reset; a uint16 on the wire, so it wraps after 65 535. */
export const CLICK_COUNT: LocalField = { name: 'click_count', min: 0, max: 65_535 };
/** Seconds since the gateway started. */
export const UPTIME: LocalField = { name: 'uptime_s', unit: 's', min: 0, max: 4_294_967_295 };
/** Fill level of the container under a distance sensor, computed by the device from its configured depth. */
export const FILL_LEVEL: LocalField = { name: 'fill_level', unit: '%', min: 0, max: 100 };

/** JSON keys NB-IoT firmware commonly uses for catalogue fields. */
export const COMMON_ALIASES: Readonly<Record<string, string>> = {
  battery: 'battery_level',
  bat: 'battery_level',
  level: 'battery_level',
  signal: 'signal_strength',
};
