/**
 * GET /core/data/{id} and the series built on it (battery, mobile data): a device's data points in a
 * period, only the requested fields. When the period holds more rows than `maxPoints`, the answer is
 * downsampled in SQL: one point per bucket (date_bin) with the average as the point's value and the
 * minimum, maximum and count beside it, so a chart keeps its peaks. Buckets of an hour and more come from
 * the rollups of closed hours (device_rollups, migration 0041) plus the raw rows of the open tail
 * and the range's partial edges. `lastRecord` answers only the newest.
 */
import type { Db } from '@iot/db';
import {
  canRollUp,
  countDeviceData,
  type DataBucketRecord,
  type DataRange,
  deviceExists,
  readCurrentValues,
  readDeviceData,
  readDeviceDataBuckets,
  readDeviceDataBucketsRolledUp,
  readLastDeviceRecord,
  withTenant,
} from '@iot/db';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { chooseBucketSeconds } from './choose-bucket';

/** Default chart resolution: about one point per pixel column of a wide chart. */
const DEFAULT_MAX_POINTS = 1500;

export interface DataPoint {
  created_at: string;
  data: Record<string, unknown>;
  geo: [number, number] | null;
  metalabel: string | null;
  /** Downsampled points only: rows in the bucket, per-field minimum and maximum. */
  count?: number;
  min?: Record<string, number | null>;
  max?: Record<string, number | null>;
}

export interface DeviceSeries {
  device_id: number;
  data_fields: string[] | null;
  tsstart: string;
  tsend: string;
  /** Rows in the period. */
  total: number;
  downsampled: boolean;
  /** Width of a bucket when downsampled, else null. */
  bucket_seconds: number | null;
  points: DataPoint[];
}

export interface ReadDeviceDataOptions {
  fields: string[] | null;
  range: DataRange;
  lastRecord?: boolean;
  /** With lastRecord: the caller named a period, so the newest record inside it counts (else overall). */
  periodGiven?: boolean;
  maxPoints?: number;
}

function geoOf(latitude: number | null, longitude: number | null): [number, number] | null {
  return latitude === null || longitude === null ? null : [latitude, longitude];
}

export async function readDeviceSeries(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  options: ReadDeviceDataOptions,
): Promise<DeviceSeries> {
  const { fields, range } = options;
  const maxPoints = options.maxPoints ?? DEFAULT_MAX_POINTS;
  const companyId = auth.companyId;
  const base = {
    device_id: deviceId,
    data_fields: fields,
    tsstart: range.from.toISOString(),
    tsend: new Date(range.to.getTime() - 1).toISOString(),
  };
  return withTenant(db, companyId, async (tx) => {
    if (!(await deviceExists(tx, companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
    if (options.lastRecord) {
      const last = await readLastDeviceRecord(
        tx,
        companyId,
        deviceId,
        fields,
        options.periodGiven ? range : undefined,
      );
      // The console asks for the last record to fill a panel; nothing there is "no data found".
      if (!last) throw apiError('DEVICE_DATA_NOT_FOUND');
      return {
        ...base,
        total: 1,
        downsampled: false,
        bucket_seconds: null,
        points: [
          {
            created_at: last.createdAt.toISOString(),
            data: last.data,
            geo: geoOf(last.latitude, last.longitude),
            metalabel: last.metalabel,
          },
        ],
      };
    }
    const bucketSeconds = chooseBucketSeconds(range.to.getTime() - range.from.getTime(), maxPoints);
    // Without requested fields, the fields the device currently reports are charted.
    const chartFields = async () =>
      fields ?? Object.keys((await readCurrentValues(tx, companyId, deviceId))?.data ?? {});
    // Ranges long enough for buckets of an hour or more (about two months and up at the default
    // resolution) read closed buckets from the rollups, whose row counts give the total without a count
    // over the raw rows; a sparse device whose range holds few rows is still answered point by point.
    let buckets: DataBucketRecord[] | null = null;
    let total: number;
    const rollupFields = await (canRollUp(bucketSeconds, []) ? chartFields() : null);
    if (rollupFields && canRollUp(bucketSeconds, rollupFields)) {
      buckets = await readDeviceDataBucketsRolledUp(
        tx,
        companyId,
        deviceId,
        range,
        rollupFields,
        bucketSeconds,
      );
      total = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
    } else {
      total = await countDeviceData(tx, companyId, deviceId, range);
    }
    if (total <= maxPoints) {
      const points = await readDeviceData(tx, companyId, deviceId, range, fields);
      return {
        ...base,
        total,
        downsampled: false,
        bucket_seconds: null,
        points: points.map((p) => ({
          created_at: p.createdAt.toISOString(),
          data: p.data,
          geo: geoOf(p.latitude, p.longitude),
          metalabel: p.metalabel,
        })),
      };
    }
    buckets ??= await readDeviceDataBuckets(
      tx,
      companyId,
      deviceId,
      range,
      await chartFields(),
      bucketSeconds,
    );
    return {
      ...base,
      total,
      downsampled: true,
      bucket_seconds: bucketSeconds,
      points: buckets.map((b) => {
        const entries = Object.entries(b.fields);
        return {
          created_at: b.start.toISOString(),
          data: Object.fromEntries(entries.map(([f, s]) => [f, s.avg])),
          geo: null,
          metalabel: null,
          count: b.count,
          min: Object.fromEntries(entries.map(([f, s]) => [f, s.min])),
          max: Object.fromEntries(entries.map(([f, s]) => [f, s.max])),
        };
      }),
    };
  });
}
