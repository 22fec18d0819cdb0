/**
 * GET /core/data/{id} and the series built on it (battery, mobile data): a device's data points in a
 * period, only the requested fields. When the period holds more rows than `maxPoints`, the answer is
 * downsampled in SQL: one point per bucket (date_bin) with the average as the point's value and the
 * minimum, maximum and count beside it, so a chart keeps its peaks. Buckets of an hour and more come from
 * the rollups of closed hours (device_rollups, migration 0043) plus the raw rows of the open tail
 * and the range's partial edges. `lastRecord` answers only the newest.
 */
import type { Db } from '@iot/db';
import {
  type ClosedBucketCache,
  canRollUp,
  countDeviceData,
  countDeviceDataOfDevice,
  type DataBucketRecord,
  type DataPointRecord,
  type DataRange,
  deviceExists,
  type Queryable,
  readAsTenant,
  readCurrentValues,
  readDeviceData,
  readDeviceDataBuckets,
  readDeviceDataBucketsRolledUp,
  readDeviceDataUpTo,
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
  /** Where closed buckets of rolled-up reads are kept between reads (the API's deps.closedBuckets). */
  closedBuckets?: ClosedBucketCache;
}

function geoOf(latitude: number | null, longitude: number | null): [number, number] | null {
  return latitude === null || longitude === null ? null : [latitude, longitude];
}

/** What one series read needs to know, computed once per request. */
interface SeriesRead {
  companyId: number;
  deviceId: number;
  options: ReadDeviceDataOptions;
  maxPoints: number;
  bucketSeconds: number;
  base: Pick<DeviceSeries, 'device_id' | 'data_fields' | 'tsstart' | 'tsend'>;
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
  const read: SeriesRead = {
    companyId,
    deviceId,
    options,
    maxPoints,
    bucketSeconds: chooseBucketSeconds(range.to.getTime() - range.from.getTime(), maxPoints),
    base: {
      device_id: deviceId,
      data_fields: fields,
      tsstart: range.from.toISOString(),
      tsend: new Date(range.to.getTime() - 1).toISOString(),
    },
  };
  // A rolled-up read may store the buckets it had to compute (under a lock that lasts until COMMIT): a
  // transaction. Every other answer only reads, statement by statement, each planned once (one device's
  // index range, whatever the values).
  const generic = { genericPlan: true };
  if (options.lastRecord) return readAsTenant(db, companyId, (q) => lastRecordSeries(q, read), generic);
  if (canRollUp(read.bucketSeconds, []))
    return withTenant(db, companyId, (tx) => rangeSeries(tx, read, true));
  return readAsTenant(db, companyId, (q) => rangeSeries(q, read, false), generic);
}

async function lastRecordSeries(q: Queryable, read: SeriesRead): Promise<DeviceSeries> {
  const { companyId, deviceId, options } = read;
  if (!(await deviceExists(q, companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
  const period = options.periodGiven ? options.range : undefined;
  const last = await readLastDeviceRecord(q, companyId, deviceId, options.fields, period);
  // The console asks for the last record to fill a panel; nothing there is "no data found".
  if (!last) throw apiError('DEVICE_DATA_NOT_FOUND');
  const point = {
    created_at: last.createdAt.toISOString(),
    data: last.data,
    geo: geoOf(last.latitude, last.longitude),
    metalabel: last.metalabel,
  };
  return { ...read.base, total: 1, downsampled: false, bucket_seconds: null, points: [point] };
}

/**
 * The points of the range, or its buckets when it holds more than maxPoints. Ranges long enough for
 * buckets of an hour or more (about two months and up at the default resolution, `rollsUp`) read closed
 * buckets from the rollups, whose row counts give the total without a count over the raw rows; a sparse
 * device whose range holds few rows is still answered point by point.
 */
async function rangeSeries(q: Queryable, read: SeriesRead, rollsUp: boolean): Promise<DeviceSeries> {
  const { companyId, deviceId, options, bucketSeconds } = read;
  const { fields, range } = options;
  // Without requested fields, the fields the device currently reports are charted.
  const chartFields = async () =>
    fields ?? Object.keys((await readCurrentValues(q, companyId, deviceId))?.data ?? {});
  let buckets: DataBucketRecord[] | null = null;
  let total: number | null;
  if (rollsUp) {
    if (!(await deviceExists(q, companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
    const rollupFields = await chartFields();
    if (canRollUp(bucketSeconds, rollupFields)) {
      buckets = await readDeviceDataBucketsRolledUp(
        q,
        companyId,
        deviceId,
        range,
        rollupFields,
        bucketSeconds,
        new Date(),
        options.closedBuckets,
      );
      total = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
    } else total = await countDeviceData(q, companyId, deviceId, range);
  } else {
    // A short range in one statement; past the limit, or without the device, the count says which.
    const points = await readDeviceDataUpTo(q, companyId, deviceId, range, fields, read.maxPoints);
    if (points) {
      const total = points.length;
      return { ...read.base, total, downsampled: false, bucket_seconds: null, points: points.map(pointOf) };
    }
    // The device is checked in the count.
    total = await countDeviceDataOfDevice(q, companyId, deviceId, range);
    if (total === null) throw apiError('DEVICE_NOT_FOUND');
  }
  if (total <= read.maxPoints) {
    const points = await readDeviceData(q, companyId, deviceId, range, fields);
    return { ...read.base, total, downsampled: false, bucket_seconds: null, points: points.map(pointOf) };
  }
  buckets ??= await readDeviceDataBuckets(q, companyId, deviceId, range, await chartFields(), bucketSeconds);
  return {
    ...read.base,
    total,
    downsampled: true,
    bucket_seconds: bucketSeconds,
    points: buckets.map(bucketPointOf),
  };
}

function pointOf(p: DataPointRecord): DataPoint {
  return {
    created_at: p.createdAt.toISOString(),
    data: p.data,
    geo: geoOf(p.latitude, p.longitude),
    metalabel: p.metalabel,
  };
}

/** A bucket as a point: the average as its value, the count, minimum and maximum beside it. */
function bucketPointOf(b: DataBucketRecord): DataPoint {
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
}
