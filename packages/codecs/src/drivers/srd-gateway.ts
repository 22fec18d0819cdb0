/**
 * srd_gateway — LoRaWAN gateway / base station status report, with a small I/O board
 * (4 digital outputs, 2 relays) that the remote-control actions switch.
 *
 * Status frame on fPort 1, version 0x01, 9 bytes, big-endian:
 *
 * | offset | size | field           | encoding                                         |
 * |--------|------|-----------------|--------------------------------------------------|
 * | 0      | 1    | version         | 0x01                                             |
 * | 1      | 4    | uptime_s        | uint32 seconds since start                       |
 * | 5      | 1    | signal_strength | uint8 1..5 (backhaul); 0 = no reading            |
 * | 6      | 1    | rssi            | int8 dBm (backhaul); 0x7F = no reading           |
 * | 7      | 2    | temperature     | int16 0.1 °C (board); 0x7FFF = no reading        |
 *
 * Example: `01 00 01 51 80 04 B5 01 A4` -> uptime_s 86400, signal_strength 4, rssi -75, temperature 42.
 * Downlinks on fPort 10: switch_digital_output (1..4, also timed), switch_relay_output (1..2, also
 * timed), reboot, request_uplink (status now), set_reporting_interval.
 */
import { COMMON_ALIASES, UPTIME } from '../fields/local-fields.js';
import { defineFrameDriver } from '../frame/define-frame-driver.js';

export const srdGateway = defineFrameDriver({
  id: 'srd_gateway',
  deviceType: 'srd_gateway',
  description:
    'LoRaWAN gateway status: uptime, backhaul signal, board temperature; digital and relay outputs',
  fPort: 1,
  fields: [
    { name: 'uptime_s', type: 'u32' },
    { name: 'signal_strength', type: 'u8', noReading: 0 },
    { name: 'rssi', type: 'i8', noReading: 0x7f },
    { name: 'temperature', type: 'i16', scale: 10, noReading: 0x7fff },
  ],
  local: [UPTIME],
  plausible: { signal_strength: [1, 5], rssi: [-140, 0], temperature: [-40, 85] },
  aliases: { ...COMMON_ALIASES, uptime: 'uptime_s' },
  commands: [
    { command: 'switch_digital_output', max: 4 },
    { command: 'switch_digital_output_timed', max: 4 },
    { command: 'switch_relay_output', max: 2 },
    { command: 'switch_relay_output_timed', max: 2 },
    { command: 'reboot' },
    { command: 'request_uplink' },
    { command: 'set_reporting_interval' },
  ],
});
