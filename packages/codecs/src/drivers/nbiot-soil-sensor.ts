/**
 * nbiot_soil_sensor — NB-IoT soil probe; the irrigation variant drives up to 4 solenoid valves.
 *
 * Uplink frame, version 0x01, 9 bytes, big-endian:
 *
 * | offset | size | field             | encoding                                          |
 * |--------|------|-------------------|---------------------------------------------------|
 * | 0      | 1    | version           | 0x01                                              |
 * | 1      | 2    | soil_humidity     | uint16 0.1 % volumetric water; 0xFFFF = no reading |
 * | 3      | 2    | soil_temperature  | int16 0.1 °C; 0x7FFF = no reading                 |
 * | 5      | 1    | soil_water_pf1    | uint8 0.1 pF (0..7.0); 0xFF = no reading          |
 * | 6      | 2    | conductivity      | uint16 µS/cm; 0xFFFF = no reading                 |
 * | 8      | 1    | battery_level     | uint8 %, 0..100                                   |
 *
 * Example: `01 01 41 00 7B 19 01 5E 50` -> soil_humidity 32.1, soil_temperature 12.3,
 * soil_water_pf1 2.5, conductivity 350, battery_level 80.
 * Downlinks: switch_solenoid_valve (1..4), reboot, request_uplink, set_reporting_interval.
 */
import { COMMON_ALIASES } from '../fields/local-fields.js';
import { defineFrameDriver } from '../frame/define-frame-driver.js';

export const nbiotSoilSensor = defineFrameDriver({
  id: 'nbiot_soil_sensor',
  deviceType: 'nbiot_soil_sensor',
  description: 'NB-IoT soil sensor: soil humidity and temperature, pF value, conductivity, battery; valves',
  fields: [
    { name: 'soil_humidity', type: 'u16', scale: 10, noReading: 0xffff },
    { name: 'soil_temperature', type: 'i16', scale: 10, noReading: 0x7fff },
    { name: 'soil_water_pf1', type: 'u8', scale: 10, noReading: 0xff },
    { name: 'conductivity', type: 'u16', noReading: 0xffff },
    { name: 'battery_level', type: 'u8' },
  ],
  plausible: {
    soil_humidity: [0, 100],
    soil_temperature: [-40, 85],
    soil_water_pf1: [0, 7],
    conductivity: [0, 20_000],
    battery_level: [0, 100],
  },
  aliases: { ...COMMON_ALIASES, pf: 'soil_water_pf1', ec: 'conductivity' },
  commands: [
    { command: 'switch_solenoid_valve', max: 4 },
    { command: 'reboot' },
    { command: 'request_uplink' },
    { command: 'set_reporting_interval' },
  ],
});
