/**
 * srd_button — LoRaWAN push button. Same fields and layout as nbiot_button, on LoRaWAN port 1.
 *
 * Uplink frame on fPort 1, version 0x01, 5 bytes, big-endian:
 *
 * | offset | size | field          | encoding                                        |
 * |--------|------|----------------|-------------------------------------------------|
 * | 0      | 1    | version        | 0x01                                            |
 * | 1      | 1    | click_type     | uint8: 1 single, 2 double, 4 long               |
 * | 2      | 2    | click_count    | uint16: clicks since last counter reset (wraps) |
 * | 4      | 1    | battery_level  | uint8 %, 0..100                                 |
 *
 * Example: fPort 1, `01 04 01 00 0A` -> click_type 4, click_count 256, battery_level 10.
 * Downlinks on fPort 10: reset_counter (counter 1), reboot, request_uplink, set_reporting_interval.
 */
import { CLICK_COUNT, CLICK_TYPE, COMMON_ALIASES } from '../fields/local-fields.js';
import { defineFrameDriver } from '../frame/define-frame-driver.js';
import { BUTTON_COMMANDS, BUTTON_FIELDS } from './nbiot-button.js';

export const srdButton = defineFrameDriver({
  id: 'srd_button',
  deviceType: 'srd_button',
  description: 'LoRaWAN push button: click type (single, double, long), click counter, battery',
  fPort: 1,
  fields: BUTTON_FIELDS,
  local: [CLICK_TYPE, CLICK_COUNT],
  plausible: { battery_level: [0, 100] },
  aliases: { ...COMMON_ALIASES, click: 'click_type', count: 'click_count' },
  commands: BUTTON_COMMANDS,
});
