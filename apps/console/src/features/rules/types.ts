import type { DeviceDetails } from '../../types/device';

/** Shapes of the rules, virtual data fields, sensor checks and downlinks routes (apps/api README). */
export interface RuleSchedule {
  start: string | null;
  end: string | null;
  weekdays: number[];
}

export interface RuleAction {
  id?: number;
  channel: string;
  config: Record<string, unknown>;
}

export interface Rule {
  id: number;
  device_id: number;
  name: string;
  is_active: boolean;
  trigger: string;
  data_field: string | null;
  operator: string | null;
  value: number | null;
  range_min: number | null;
  range_max: number | null;
  time_window_seconds: number;
  schedule: RuleSchedule | null;
  max_actions: number | null;
  max_actions_period_seconds: number | null;
  click_type: number | null;
  max_clicks: number | null;
  last_fired_at: string | null;
  actions: RuleAction[];
}

/** Body of one rule in PUT /core/devices/{id} `{ rules: [...] }`. */
export type RuleInput = Omit<Rule, 'id' | 'device_id' | 'last_fired_at'> & { id?: number };

export interface DeviceWithRules extends DeviceDetails {
  rules?: Rule[];
  device_details?: { data_fields?: unknown[] } & Record<string, unknown>;
  device_info?: { data_fields?: unknown[] } & Record<string, unknown>;
}

export interface VirtualField {
  id: number;
  device_id: number;
  uuid: string;
  name: string;
  data_field: string;
  unit: string | null;
  formula: string | null;
  function: string | null;
  mapping: Record<string, string | number>;
  store: boolean;
}

export interface VirtualFieldInput {
  name: string;
  unit: string | null;
  formula: string | null;
  function: string | null;
  mapping: Record<string, string | number> | null;
  store: boolean;
}

export interface VirtualPreview {
  data_field: string;
  value: string | number | null;
  numeric: number | null;
  error: string | null;
}

export const SENSOR_CHECK_KINDS = ['no_data', 'implausible_value', 'battery_low'] as const;
export type SensorCheckKind = (typeof SENSOR_CHECK_KINDS)[number];

export interface SensorCheck {
  id: number;
  device_id: number;
  kind: string;
  data_field: string | null;
  max_silence_seconds: number | null;
  min_value: number | null;
  max_value: number | null;
  level: number | null;
  is_active: boolean;
  last_checked_at: string | null;
}

export interface SensorCheckInput {
  kind: SensorCheckKind;
  data_field?: string | null;
  max_silence_seconds?: number | null;
  min_value?: number | null;
  max_value?: number | null;
  level?: number | null;
  is_active: boolean;
}

export interface Downlink {
  id: number;
  device_id: number;
  command: string;
  params: Record<string, unknown>;
  state: string;
  attempts: number;
  error: string | null;
  /** set for a LoRaWAN command: its network server reports when the device acknowledged it */
  reference: string | null;
  rule_id: number | null;
  created_at: string;
  sent_at: string | null;
  acknowledged_at: string | null;
}

export const NOTIFICATION_STATUSES = ['sent', 'queued', 'failed', 'skipped'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** One delivery attempt to one recipient (GET /core/devices/{id}/notifications). */
export interface DeviceNotification {
  id: number;
  device_id: number;
  rule_id: number | null;
  /** Null when the rule has been deleted since. */
  rule_name: string | null;
  alarm_id: number | null;
  channel: string;
  /** Addresses, a phone number, `system`, an http action's URL (without query) or `device:<id>`. */
  recipient: string | null;
  status: NotificationStatus;
  error: string | null;
  via: string | null;
  reference: string | null;
  attempt: number | null;
  max_attempts: number | null;
  /** A failure after which no further attempt follows. */
  final: boolean;
  created_at: string;
  sent_at: string | null;
}
