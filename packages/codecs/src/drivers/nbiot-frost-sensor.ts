/**
 * nbiot_frost_sensor — NB-IoT frost warning sensor (air temperature, dew point, wet bulb, humidity).
 *
 * Uplink frame, version 0x01, 10 bytes, big-endian:
 *
 * | offset | size | field                | encoding                              |
 * |--------|------|----------------------|---------------------------------------|
 * | 0      | 1    | version              | 0x01                                  |
 * | 1      | 2    | temperature          | int16 0.1 °C; 0x7FFF = no reading     |
 * | 3      | 2    | dew_point            | int16 0.1 °C; 0x7FFF = no reading     |
 * | 5      | 2    | wet_bulb_temperature | int16 0.1 °C; 0x7FFF = no reading     |
 * | 7      | 2    | humidity             | uint16 0.1 % rH; 0xFFFF = no reading  |
 * | 9      | 1    | battery_level        | uint8 %, 0..100                       |
 *
 * Example: `01 FF E2 FF C4 FF D8 03 52 5A` -> temperature -3, dew_point -6, wet_bulb_temperature -4,
 * humidity 85, battery_level 90.
 * Downlinks: reboot, request_uplink, set_reporting_interval.
 */
import { COMMON_ALIASES } from '../fields/local-fields.js';
import { defineFrameDriver } from '../frame/define-frame-driver.js';

export const nbiotFrostSensor = defineFrameDriver({
  id: 'nbiot_frost_sensor',
  deviceType: 'nbiot_frost_sensor',
  description: 'NB-IoT frost sensor: temperature, dew point, wet bulb temperature, humidity, battery',
  fields: [
    { name: 'temperature', type: 'i16', scale: 10, noReading: 0x7fff },
    { name: 'dew_point', type: 'i16', scale: 10, noReading: 0x7fff },
    { name: 'wet_bulb_temperature', type: 'i16', scale: 10, noReading: 0x7fff },
    { name: 'humidity', type: 'u16', scale: 10, noReading: 0xffff },
    { name: 'battery_level', type: 'u8' },
  ],
  plausible: {
    temperature: [-40, 85],
    dew_point: [-60, 60],
    wet_bulb_temperature: [-40, 85],
    humidity: [0, 100],
    battery_level: [0, 100],
  },
  aliases: { ...COMMON_ALIASES, wet_bulb: 'wet_bulb_temperature', dewpoint: 'dew_point' },
  commands: [{ command: 'reboot' }, { command: 'request_uplink' }, { command: 'set_reporting_interval' }],
});
