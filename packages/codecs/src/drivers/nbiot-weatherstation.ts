/**
 * nbiot_weatherstation — NB-IoT compact weather station.
 *
 * Uplink frame, version 0x01, 19 bytes, big-endian:
 *
 * | offset | size | field          | encoding                                   |
 * |--------|------|----------------|--------------------------------------------|
 * | 0      | 1    | version        | 0x01                                       |
 * | 1      | 2    | temperature    | int16 0.1 °C; 0x7FFF = no reading          |
 * | 3      | 2    | humidity       | uint16 0.1 % rH; 0xFFFF = no reading       |
 * | 5      | 2    | pressure       | uint16 0.1 hPa; 0xFFFF = no reading        |
 * | 7      | 2    | wind_speed_kmh | uint16 0.1 km/h; 0xFFFF = no reading       |
 * | 9      | 2    | wind_direction | uint16 degrees 0..359; 0xFFFF = no reading |
 * | 11     | 2    | rain_hourly    | uint16 0.1 mm; 0xFFFF = no reading         |
 * | 13     | 1    | uv_index       | uint8 0.1; 0xFF = no reading               |
 * | 14     | 4    | brightness     | uint32 lx; 0xFFFFFFFF = no reading         |
 * | 18     | 1    | battery_level  | uint8 %, 0..100                            |
 *
 * Example: `01 00 D7 02 8A 27 97 00 7B 00 E1 00 0C 32 00 00 3A 98 64` -> temperature 21.5,
 * humidity 65, pressure 1013.5, wind_speed_kmh 12.3, wind_direction 225, rain_hourly 1.2,
 * uv_index 5, brightness 15000, battery_level 100.
 * Downlinks: reboot, request_uplink, set_reporting_interval.
 */
import { COMMON_ALIASES } from '../fields/local-fields.js';
import { defineFrameDriver } from '../frame/define-frame-driver.js';

export const nbiotWeatherstation = defineFrameDriver({
  id: 'nbiot_weatherstation',
  deviceType: 'nbiot_weatherstation',
  description: 'NB-IoT weather station: temperature, humidity, pressure, wind, rain, UV, brightness, battery',
  fields: [
    { name: 'temperature', type: 'i16', scale: 10, noReading: 0x7fff },
    { name: 'humidity', type: 'u16', scale: 10, noReading: 0xffff },
    { name: 'pressure', type: 'u16', scale: 10, noReading: 0xffff },
    { name: 'wind_speed_kmh', type: 'u16', scale: 10, noReading: 0xffff },
    { name: 'wind_direction', type: 'u16', noReading: 0xffff },
    { name: 'rain_hourly', type: 'u16', scale: 10, noReading: 0xffff },
    { name: 'uv_index', type: 'u8', scale: 10, noReading: 0xff },
    { name: 'brightness', type: 'u32', noReading: 0xffffffff },
    { name: 'battery_level', type: 'u8' },
  ],
  plausible: {
    temperature: [-40, 85],
    humidity: [0, 100],
    pressure: [300, 1100],
    wind_speed_kmh: [0, 250],
    wind_direction: [0, 359],
    rain_hourly: [0, 300],
    uv_index: [0, 20],
    // Direct sunlight reaches about 120 000 lx; the console's bound of 20 000 only warns.
    brightness: [0, 200_000],
    battery_level: [0, 100],
  },
  aliases: { ...COMMON_ALIASES, wind_speed: 'wind_speed_kmh', rain: 'rain_hourly', uv: 'uv_index' },
  commands: [{ command: 'reboot' }, { command: 'request_uplink' }, { command: 'set_reporting_interval' }],
});
