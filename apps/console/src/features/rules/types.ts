import type { DeviceNotification as DeviceNotificationResponse, Rule } from '@iot/contracts';
import type { DeviceDetails } from '../../types/device';

/** Shapes of the rules, virtual data fields, sensor checks and downlinks routes (apps/api README). */
export type {
  Downlink,
  Rule,
  SensorCheck,
  VirtualField,
  VirtualPreview,
} from '@iot/contracts';

/** An action in the rule form: new ones have no id until saved. */
export interface RuleAction {
  id?: number;
  channel: string;
  config: Record<string, unknown>;
}

/** Body of one rule in PUT /core/devices/{id} `{ rules: [...] }`. */
export type RuleInput = Omit<Rule, 'id' | 'device_id' | 'last_fired_at' | 'actions'> & {
  id?: number;
  actions: RuleAction[];
};

/** GET /core/devices/{id} with its rules. */
export type DeviceWithRules = DeviceDetails;

export interface VirtualFieldInput {
  name: string;
  unit: string | null;
  formula: string | null;
  function: string | null;
  mapping: Record<string, string | number> | null;
  store: boolean;
}

export const SENSOR_CHECK_KINDS = ['no_data', 'implausible_value', 'battery_low'] as const;
export type SensorCheckKind = (typeof SENSOR_CHECK_KINDS)[number];

export interface SensorCheckInput {
  kind: SensorCheckKind;
  data_field?: string | null;
  max_silence_seconds?: number | null;
  min_value?: number | null;
  max_value?: number | null;
  level?: number | null;
  is_active: boolean;
}

export const NOTIFICATION_STATUSES = ['sent', 'queued', 'failed', 'skipped'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** One delivery attempt to one recipient; the API documents `status` as one of NOTIFICATION_STATUSES. */
export type DeviceNotification = Omit<DeviceNotificationResponse, 'status'> & { status: NotificationStatus };

/** One delivery attempt to one recipient (GET /core/devices/{id}/notifications). */
