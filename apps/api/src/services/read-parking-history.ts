/**
 * The data drawer's history of a car park (issue #25): occupancy in hourly buckets (daily for a year)
 * from the recorded counts, turnover, average and longest stay, the share of time full.
 */
import type { ParkingHistory } from '@iot/contracts';
import { type Db, findParkingArea, listParkingCountSamples, parkingStayStats, withTenant } from '@iot/db';
import { fullShareOf, occupancyBuckets } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const HISTORY_RANGES = {
  '24h': { span: DAY, bucket: HOUR },
  '1w': { span: 7 * DAY, bucket: HOUR },
  '1m': { span: 30 * DAY, bucket: HOUR },
  '1y': { span: 365 * DAY, bucket: DAY },
} as const;

export async function readParkingHistory(
  db: Db,
  auth: AuthContext,
  areaId: number,
  range: keyof typeof HISTORY_RANGES,
  now = Date.now(),
): Promise<ParkingHistory> {
  const { span, bucket } = HISTORY_RANGES[range];
  const to = Math.ceil(now / HOUR) * HOUR;
  const from = to - span;
  return withTenant(db, auth.companyId, async (tx) => {
    const area = await findParkingArea(tx, auth.companyId, areaId);
    if (!area) throw apiError('PARKING_AREA_NOT_FOUND');
    const [samples, stays] = [
      await listParkingCountSamples(tx, auth.companyId, areaId, new Date(from), new Date(to)),
      // Open stays count up to now.
      await parkingStayStats(tx, auth.companyId, areaId, new Date(from), new Date(Math.min(to, now))),
    ];
    const buckets = occupancyBuckets(
      samples.map((s) => ({
        at: s.at.getTime(),
        capacity: s.capacity,
        free: s.free_slots,
        occupied: s.occupied_slots,
        unknown: s.unknown_slots,
      })),
      // Up to now: the rest of the current hour has not happened yet.
      { from, to: Math.min(to, now), bucketMs: bucket },
    );
    const bays = area.type === 'FIX' ? area.bays.length : 0;
    return {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      bucket_seconds: bucket / 1000,
      capacity: area.capacity,
      buckets: buckets.map((b) => ({
        at: new Date(b.at).toISOString(),
        free: b.free,
        occupied: b.occupied,
        unknown: b.unknown,
        full_share: b.fullShare,
      })),
      stays: stays.stays,
      turnover: bays > 0 ? stays.stays / bays / (span / DAY) : null,
      avg_stay_minutes: stays.avgMinutes,
      longest_stay_minutes: stays.longestMinutes,
      full_share: fullShareOf(buckets),
    };
  });
}
