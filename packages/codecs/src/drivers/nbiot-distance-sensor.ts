/**
 * nbiot_distance_sensor — NB-IoT ultrasonic distance / fill level sensor.
 *
 * Uplink frame, version 0x01, 6 bytes, big-endian. The device measures in millimetres; the data
 * field `distance` is in centimetres (domain catalogue), so the driver divides by 10.
 *
 * | offset | size | field           | encoding                                                |
 * |--------|------|-----------------|---------------------------------------------------------|
 * | 0      | 1    | version         | 0x01                                                    |
 * | 1      | 2    | distance        | uint16 mm -> cm (one decimal); 0xFFFF = no echo         |
 * | 3      | 1    | fill_level      | uint8 % of the configured depth; 0xFF = not configured  |
 * | 4      | 1    | battery_level   | uint8 %, 0..100                                         |
 * | 5      | 1    | signal_strength | uint8 1..5; 0 = no reading                              |
 *
 * Example: `01 08 44 3C 5C 04` -> distance 211.6, fill_level 60, battery_level 92, signal_strength 4.
 * Downlinks: reboot, request_uplink, set_reporting_interval.
 */
import { COMMON_ALIASES, FILL_LEVEL } from '../fields/local-fields.js';
import { defineFrameDriver } from '../frame/define-frame-driver.js';

export const nbiotDistanceSensor = defineFrameDriver({
  id: 'nbiot_distance_sensor',
  deviceType: 'nbiot_distance_sensor',
  description: 'NB-IoT distance sensor: distance (mm on the wire, cm stored), fill level, battery, signal',
  fields: [
    { name: 'distance', type: 'u16', scale: 10, noReading: 0xffff },
    { name: 'fill_level', type: 'u8', noReading: 0xff },
    { name: 'battery_level', type: 'u8' },
    { name: 'signal_strength', type: 'u8', noReading: 0 },
  ],
  local: [FILL_LEVEL],
  // The ultrasonic head measures 3 cm to 10 m; anything beyond is an echo artefact.
  plausible: { distance: [0, 1000], battery_level: [0, 100], signal_strength: [1, 5] },
  aliases: { ...COMMON_ALIASES, fill: 'fill_level' },
  commands: [{ command: 'reboot' }, { command: 'request_uplink' }, { command: 'set_reporting_interval' }],
});
