/**
 * The device and data answers of /api/v1 (spec sections 3 and 7). Field types come from the API's
 * contracts (@iot/contracts); `Device` and `DataPoint` keep all but their identity optional because the
 * console also builds them from other answers (an alarm's device id and name) and from partial rows.
 */
import type {
  DataPoint as DataPointResponse,
  DeviceDetails as DeviceDetailsResponse,
  Device as DeviceRow,
  DeviceSeries as DeviceSeriesResponse,
} from '@iot/contracts';

export type {
  CurrentValues,
  DeviceLog,
  MapDeviceColumns,
  MetadataEntry,
  MobileData,
  RotatedCredentials,
} from '@iot/contracts';

export type Device = Pick<DeviceRow, 'id' | 'name' | 'state' | 'is_active'> & Partial<DeviceRow>;
export type DeviceDetails = Device & Partial<Omit<DeviceDetailsResponse, keyof DeviceRow>>;
export type DataPoint = Pick<DataPointResponse, 'created_at' | 'data'> & Partial<DataPointResponse>;
export type DeviceSeries = Omit<DeviceSeriesResponse, 'points'> & { points: DataPoint[] };

/** What the device form sends with PUT /core/devices/{id}. */
export interface UpdateDeviceInput {
  id: number;
  codec_id?: number | null;
  name?: string;
  description?: string | null;
  comment?: string | null;
  location?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  group_id?: number | null;
  state?: string;
}
