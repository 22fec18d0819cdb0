/** One alarm of GET /core/devices/alarms (apps/api alarms route). */
export interface Alarm {
  id: number;
  device_id: number;
  device_name: string;
  rule_id: number | null;
  rule_name: string | null;
  sensor_check_id: number | null;
  sensor_check_kind: string | null;
  state: 'raised' | 'acknowledged' | 'cleared';
  level: number;
  data_field: string | null;
  value: number | null;
  message: string | null;
  raised_at: string;
  acknowledged_at: string | null;
  acknowledged_by: { id: number; name: string } | null;
  cleared_at: string | null;
}

/** The page's filter, kept in the URL: open alarms only, or open plus those cleared within 24 hours. */
export type AlarmFilter = 'open' | 'all';

export function parseAlarmFilter(value: string | null): AlarmFilter {
  return value === 'all' ? 'all' : 'open';
}
