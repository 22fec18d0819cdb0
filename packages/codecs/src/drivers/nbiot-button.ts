/**
 * nbiot_button — NB-IoT push button. Sends one frame per click (or a JSON object with the same fields).
 *
 * Uplink frame, version 0x01, 5 bytes, big-endian:
 *
 * | offset | size | field          | encoding                                        |
 * |--------|------|----------------|-------------------------------------------------|
 * | 0      | 1    | version        | 0x01                                            |
 * | 1      | 1    | click_type     | uint8: 1 single, 2 double, 4 long               |
 * | 2      | 2    | click_count    | uint16: clicks since last counter reset (wraps) |
 * | 4      | 1    | battery_level  | uint8 %, 0..100                                 |
 *
 * Example: `01 02 00 2A 57` -> click_type 2, click_count 42, battery_level 87.
 * Downlinks (README "Downlink commands"): reset_counter (counter 1 = click counter), reboot,
 * request_uplink, set_reporting_interval (heartbeat interval).
 */
import { CLICK_COUNT, CLICK_TYPE, COMMON_ALIASES } from '../fields/local-fields.js';
import { defineFrameDriver, type FrameDriverSpec } from '../frame/define-frame-driver.js';

export const BUTTON_FIELDS: FrameDriverSpec['fields'] = [
  { name: 'click_type', type: 'u8' },
  { name: 'click_count', type: 'u16' },
  { name: 'battery_level', type: 'u8' },
];

export const BUTTON_COMMANDS: FrameDriverSpec['commands'] = [
  { command: 'reset_counter', max: 1 },
  { command: 'reboot' },
  { command: 'request_uplink' },
  { command: 'set_reporting_interval' },
];

export const nbiotButton = defineFrameDriver({
  id: 'nbiot_button',
  deviceType: 'nbiot_button',
  description: 'NB-IoT push button: click type (single, double, long), click counter, battery',
  fields: BUTTON_FIELDS,
  local: [CLICK_TYPE, CLICK_COUNT],
  plausible: { battery_level: [0, 100] },
  aliases: { ...COMMON_ALIASES, click: 'click_type', count: 'click_count' },
  commands: BUTTON_COMMANDS,
});
