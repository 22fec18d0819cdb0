/**
 * GET /core/devices: the filters of the console's /devices/:filter? screen, turned into one repository
 * query. Battery buckets use the domain's thresholds (spec section 4: over 80 full, over 50 medium, over
 * 30 low, over 10 empty, 0 to 10 alert); stale means last heard more than 8 hours ago.
 */
import type { Db } from '@iot/db';
import {
  type BatteryRange,
  type DeviceListFilter,
  type DeviceSortColumn,
  listDevicePinColumnsJson,
  listDevicesJson,
  readAsTenant,
} from '@iot/db';
import { BATTERY_THRESHOLDS, type BatteryBucket, STALE_DATA_HOURS } from '@iot/domain';
import type { AuthContext } from '../types';

const T = BATTERY_THRESHOLDS;
const BATTERY_RANGES: Record<Exclude<BatteryBucket, 'off' | 'power'>, BatteryRange> = {
  full: { min: T.full, max: null },
  medium: { min: T.medium, max: T.full },
  low: { min: T.low, max: T.medium },
  empty: { min: T.empty, max: T.low },
  alert: { min: null, max: T.empty },
};

export interface DeviceListQuery {
  search?: string;
  state?: string;
  group_id?: number;
  device_type?: string;
  status?: 'online' | 'offline';
  stale?: boolean;
  battery?: BatteryBucket;
  field_id?: number;
  parking_area_id?: number;
  sort?: DeviceSortColumn;
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
  /** comma-separated device ids */
  ids?: string;
  view?: 'map';
  /** with view=map: comma-separated data fields */
  data_fields?: string;
}

function toDeviceListFilter(query: DeviceListQuery, now: Date = new Date()): DeviceListFilter {
  const filter: DeviceListFilter = {};
  if (query.search !== undefined) filter.search = query.search;
  if (query.state !== undefined) filter.state = query.state;
  if (query.group_id !== undefined) filter.groupId = query.group_id;
  if (query.device_type !== undefined) filter.deviceType = query.device_type;
  if (query.status !== undefined) filter.active = query.status === 'online';
  if (query.stale) filter.staleBefore = new Date(now.getTime() - STALE_DATA_HOURS * 3_600_000);
  if (query.battery === 'off') filter.battery = 'none';
  else if (query.battery === 'power') filter.battery = 'mains';
  else if (query.battery !== undefined) filter.battery = BATTERY_RANGES[query.battery];
  if (query.field_id !== undefined) filter.fieldId = query.field_id;
  if (query.parking_area_id !== undefined) filter.parkingAreaId = query.parking_area_id;
  if (query.sort !== undefined) filter.sort = query.sort;
  if (query.order !== undefined) filter.order = query.order;
  if (query.limit !== undefined) filter.limit = query.limit;
  if (query.offset !== undefined) filter.offset = query.offset;
  if (query.ids !== undefined) filter.ids = query.ids.split(',').map(Number);
  return filter;
}

/** Sorts by what a fleet's latest values or a group's name change (neither announced on the map channel). */
const SORTS_BY_LATEST_VALUES = new Set<DeviceSortColumn>([
  'last_online_at',
  'battery_level',
  'signal_strength',
  'group',
]);

/**
 * Whether the answer shows only what migration 0044 announces on the map channel: a map list without latest
 * values (pins by state), filtered and sorted by the devices' own columns, the online flag and position.
 * Such an answer is kept through a fleet's latest values (`deviceMapCache`).
 */
export function showsOnlyPins(query: DeviceListQuery): boolean {
  return (
    query.view === 'map' &&
    (query.data_fields ?? '').split(',').every((field) => field.trim() === '') &&
    !query.stale &&
    query.battery === undefined &&
    (query.sort === undefined || !SORTS_BY_LATEST_VALUES.has(query.sort))
  );
}

/** The map's columns of the filtered list as JSON text (listDevicePinColumnsJson), ready to send. */
export function listCompanyDevicePins(db: Db, auth: AuthContext, query: DeviceListQuery): Promise<string> {
  const filter = toDeviceListFilter(query);
  const fields = [
    ...new Set(
      (query.data_fields ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== ''),
    ),
  ];
  return readAsTenant(db, auth.companyId, (q) => listDevicePinColumnsJson(q, auth.companyId, filter, fields));
}

/** The filtered page as the JSON text of the answer's device objects (listDevicesJson), ready to send. */
export function listCompanyDevicesJson(db: Db, auth: AuthContext, query: DeviceListQuery): Promise<string> {
  const filter = toDeviceListFilter(query);
  return readAsTenant(db, auth.companyId, (q) => listDevicesJson(q, auth.companyId, filter), {
    genericPlan: true,
  });
}
