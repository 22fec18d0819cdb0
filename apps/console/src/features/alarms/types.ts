import type { Alarm as AlarmResponse } from '@iot/contracts';

export type AlarmState = 'raised' | 'acknowledged' | 'cleared';

/** One alarm of GET /core/devices/alarms; the API documents `state` as one of three words. */
export type Alarm = Omit<AlarmResponse, 'state'> & { state: AlarmState };

/** The page's filter, kept in the URL: open alarms only, or open plus those cleared within 24 hours. */
export type AlarmFilter = 'open' | 'all';

export function parseAlarmFilter(value: string | null): AlarmFilter {
  return value === 'all' ? 'all' : 'open';
}
