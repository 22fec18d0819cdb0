/** Device types known to the console (spec section 3). */
export const DEVICE_TYPES = [
  'nbiot_button',
  'srd_button',
  'srd_gateway',
  'nbiot_soil_sensor',
  'nbiot_frost_sensor',
  'nbiot_distance_sensor',
  'nbiot_weatherstation',
] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Servers a device can report to (spec section 3). */
export const DEVICE_TARGET_SERVERS = ['develop', 'staging', 'production'] as const;
export type DeviceTargetServer = (typeof DEVICE_TARGET_SERVERS)[number];

/** Manual device states (spec section 3); transitions between them are not restricted by the spec. */
export const DEVICE_STATES = ['ok', 'maintenance', 'lost', 'broken', 'disposed'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** Numeric sensor type codes (spec section 3); they are bit flags, hence 8 and 1024. */
export const SENSOR_TYPE_CODES = {
  PARKINGSENSOR: 8,
  AI_PARKINGSENSOR: 1024,
} as const;
export type SensorTypeName = keyof typeof SENSOR_TYPE_CODES;

/** Device kinds the product covers (spec section 1), as stable slugs for icons and filters. */
export const DEVICE_KINDS = [
  'gateway',
  'distance',
  'temperature_humidity',
  'parking_sensor',
  'ai_parking_sensor',
  'push_button',
  'energy_meter',
  'soil_moisture',
  'liquid_leak',
  'object_tracker',
  'leaf_moisture',
  'motion_sensor',
  'frost_sensor',
  'weather_station',
  'water_meter',
  'valve',
  'door_sensor',
  'sound_sensor',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export function isDeviceType(value: unknown): value is DeviceType {
  return typeof value === 'string' && (DEVICE_TYPES as readonly string[]).includes(value);
}

export function isDeviceState(value: unknown): value is DeviceState {
  return typeof value === 'string' && (DEVICE_STATES as readonly string[]).includes(value);
}
