/** Shapes of the device and data answers of /api/v1 (spec sections 3 and 7) as the console reads them. */

export interface DeviceGroupRef {
  id: number;
  name: string;
}

export interface MetadataEntry {
  data_field: string;
  label: string;
  sort: number;
}

/** One row of GET /core/devices: the device, its group and its latest values (device_current). */
export interface Device {
  id: number;
  uuid?: string | null;
  name: string;
  description?: string | null;
  comment?: string | null;
  device_type?: string | null;
  driver_id?: string | null;
  serial_number?: string | null;
  dev_eui?: string | null;
  state: string;
  is_active: boolean;
  external_accessible?: boolean;
  target_server?: string | null;
  battery_level?: number | null;
  battery_voltage?: number | null;
  mains_powered?: boolean;
  last_online_at?: string | null;
  signal_strength?: number | null;
  rssi?: number | null;
  snr?: number | null;
  group?: DeviceGroupRef | null;
  location?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  mobile_data_volume?: number | null;
  sensor_type?: number | null;
  group_id?: number | null;
  metadata?: { data_fields?: MetadataEntry[] } | null;
  /** latest value per data field (device_current) */
  data?: Record<string, unknown> | null;
  field_times?: Record<string, string | null> | null;
  /** time of the newest value */
  data_updated_at?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
}

/**
 * GET /core/devices?view=map: what a map draws, as columns (index i of every array is one device), which
 * for 10,000 devices is a quarter of the bytes of one object per device (273 kB against 1.1 MB). `state`
 * points into `states`; `data` holds a column per asked field.
 */
export interface MapDeviceColumns {
  count: number;
  id: number[];
  states: string[];
  state: number[];
  /** 1 active, 0 not */
  is_active: number[];
  latitude: (number | null)[];
  longitude: (number | null)[];
  data: Record<string, unknown[]>;
}

/** GET /core/devices/{id}: the list row plus details; credentials only for ROLE_ADMIN and ROLE_MAINUSER. */
export interface DeviceDetails extends Device {
  codec_id?: number | null;
  credentials_set?: boolean;
  device_details?: { data_fields?: unknown[] } & Record<string, unknown>;
  device_info?: { data_fields?: unknown[] } & Record<string, unknown>;
  rules_count?: number;
  /** ROLE_ADMIN and ROLE_MAINUSER only */
  credentials?: { is_set: boolean; rotate: string };
  integration?: {
    dev_eui: string | null;
    serial_number: string | null;
    uuid: string;
    mqtt_topic: string | null;
    active_integration_tokens: number;
    /** How a command leaves; null: a LoRaWAN device without a downlink route (the API answers 93). */
    downlink_via: 'mqtt' | 'tts' | 'chirpstack' | null;
  };
}

export interface RotatedCredentials {
  device_id: number;
  token: string;
}

export interface MobileData {
  device_id: number;
  mobile_data_volume: number | null;
  history: DeviceSeries;
}

/** A data point; downsampled answers carry count, min and max per field beside the average in data. */
export interface DataPoint {
  created_at: string;
  data: Record<string, unknown>;
  geo?: [number, number] | null;
  metalabel?: string | null;
  count?: number;
  min?: Record<string, number | null>;
  max?: Record<string, number | null>;
}

export interface DeviceSeries {
  device_id: number;
  data_fields: string[] | null;
  tsstart: string;
  tsend: string;
  total: number;
  downsampled: boolean;
  bucket_seconds: number | null;
  points: DataPoint[];
}

export interface CurrentValues {
  device_id: number;
  updated_at: string | null;
  data: Record<string, unknown>;
  field_times: Record<string, string | null>;
  stale: Record<string, boolean>;
  geo: [number, number] | null;
}

export interface DeviceLog {
  id: number;
  device_id?: number;
  level: number;
  level_name?: string;
  message: string;
  payload?: unknown;
  raw?: string | null;
  created_at: string;
}

export interface UpdateDeviceInput {
  id: number;
  name?: string;
  description?: string | null;
  comment?: string | null;
  location?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  group_id?: number | null;
  state?: string;
}
