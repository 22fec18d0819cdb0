import type { UplinkEnvelope } from '@iot/contracts/uplinks';
import { signalLevel } from '@iot/domain';

export interface DeviceStatusValues {
  battery_level?: number;
  battery_voltage?: number;
  signal_strength?: number;
  rssi?: number;
  snr?: number;
  mobile_data_volume?: number;
  latitude?: number;
  longitude?: number;
}

// Every spelling devices and decoders use; the first one present wins.
const BATTERY_LEVEL_KEYS = [
  'battery_level',
  'battery.level',
  'battery.battery_level',
  'batteryLevel',
  'battery',
  'level',
  'bat',
];
const BATTERY_VOLTAGE_KEYS = [
  'battery_voltage',
  'battery.voltage',
  'batteryVoltage',
  'voltage',
  'bat_v',
  'batv',
  'vbat',
  'battery_v',
];
const MOBILE_DATA_KEYS = ['mobile_data_volume', 'data_volume', 'mobile_data'];

const numberOf = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

function first(data: Record<string, unknown>, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = numberOf(data[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * Signal strength 1..5 from a LoRaWAN/NB-IoT RSSI when the device reports none of its own:
 * -70 dBm and better 5, -85 4, -100 3, -110 2, weaker 1.
 */
export function signalFromRssi(rssi: number): number {
  if (rssi >= -70) return 5;
  if (rssi >= -85) return 4;
  if (rssi >= -100) return 3;
  if (rssi >= -110) return 2;
  return 1;
}

/**
 * The device status columns an envelope speaks about. Battery level is a percentage 0..100 (a value
 * outside is no level); a voltage of 1000 or more is taken as millivolts. RSSI and SNR come from the
 * network server's metadata, else from the data.
 */
export function extractDeviceStatus(envelope: UplinkEnvelope): DeviceStatusValues {
  const data = envelope.data as Record<string, unknown>;
  const status: DeviceStatusValues = {};
  const level = first(data, BATTERY_LEVEL_KEYS);
  if (level !== undefined && level >= 0 && level <= 100) status.battery_level = level;
  const voltage = first(data, BATTERY_VOLTAGE_KEYS);
  if (voltage !== undefined && voltage >= 0)
    status.battery_voltage = voltage >= 1000 ? voltage / 1000 : voltage;
  // Out of any radio's range means a broken reading; it must not reach the integer column either.
  const rssi = envelope.rssi ?? numberOf(data.rssi);
  if (rssi !== undefined && rssi >= -200 && rssi <= 50) status.rssi = Math.round(rssi);
  const snr = envelope.snr ?? numberOf(data.snr);
  if (snr !== undefined && snr >= -50 && snr <= 50) status.snr = snr;
  const own = signalLevel(numberOf(data.signal_strength) ?? numberOf(data.signal));
  if (own !== null) status.signal_strength = own;
  else if (status.rssi !== undefined) status.signal_strength = signalFromRssi(status.rssi);
  const mobile = first(data, MOBILE_DATA_KEYS);
  if (mobile !== undefined && mobile >= 0 && mobile <= Number.MAX_SAFE_INTEGER)
    status.mobile_data_volume = Math.round(mobile);
  if (envelope.geo) {
    status.latitude = envelope.geo.latitude;
    status.longitude = envelope.geo.longitude;
  }
  return status;
}
