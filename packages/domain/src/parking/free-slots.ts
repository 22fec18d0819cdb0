/**
 * Free slots of a parking area (issue #25, spec sections 3 and 4). FIX: one parking sensor per bay; a bay
 * is free when its latest `occupied` is false, and a bay without a reading within 8 hours is unknown,
 * never free. AI: counting sensors report vehicles; free = capacity minus their sum, clamped to
 * [0, capacity], with a plausibility warning when the sum leaves that range (HSL P+R PR #297).
 */
import { STALE_DATA_HOURS } from '../constants/session';
import type { ParkingAreaType } from '../constants/ui';

export const PARKING_STALE_MS = STALE_DATA_HOURS * 60 * 60 * 1000;

/** Data fields a counting sensor reports vehicles in (spec section 3: vehicle count, pax_count). */
export const PARKING_COUNT_FIELDS = ['vehicle_count', 'pax_count'] as const;
/** Data fields a counting sensor reports free spaces in; turned into vehicles against the capacity. */
export const PARKING_FREE_FIELDS = ['free_spaces', 'free_slots'] as const;

export type ParkingCountWarning = 'above_capacity' | 'negative';
export type BayStatus = 'occupied' | 'free' | 'unknown';

/** What one uplink says about parking: a bay's occupancy, or a vehicle / free-space count. */
export interface ParkingReading {
  occupied?: boolean;
  vehicles?: number;
  freeSpaces?: number;
}

function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

function asCount(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.round(n) : undefined;
}

/** The parking reading of an uplink's data, or null when it carries none (most uplinks). */
export function parkingReadingOf(data: Record<string, unknown>): ParkingReading | null {
  const reading: ParkingReading = {};
  const occupied = asBoolean(data.occupied);
  if (occupied !== undefined) reading.occupied = occupied;
  for (const key of PARKING_COUNT_FIELDS) {
    const n = asCount(data[key]);
    if (n !== undefined) {
      reading.vehicles = n;
      break;
    }
  }
  for (const key of PARKING_FREE_FIELDS) {
    const n = asCount(data[key]);
    if (n !== undefined) {
      reading.freeSpaces = n;
      break;
    }
  }
  return Object.keys(reading).length > 0 ? reading : null;
}

export interface BayReading {
  occupied: boolean | null;
  /** AI: vehicles this sensor counted. */
  reportedCount: number | null;
  readingAt: Date | null;
}

export function isReadingFresh(readingAt: Date | null, now: number): boolean {
  return readingAt !== null && now - readingAt.getTime() <= PARKING_STALE_MS;
}

export function bayStatus(bay: BayReading, now: number): BayStatus {
  if (bay.occupied === null || !isReadingFresh(bay.readingAt, now)) return 'unknown';
  return bay.occupied ? 'occupied' : 'free';
}

export interface AreaCounts {
  /** null: nothing known (no fresh reading at all). */
  freeSlots: number | null;
  occupiedSlots: number;
  unknownSlots: number;
  /** AI: the sum the sensors reported, before clamping. */
  reportedCount: number | null;
  countWarning: ParkingCountWarning | null;
}

export function computeAreaCounts(options: {
  type: ParkingAreaType;
  capacity: number;
  bays: readonly BayReading[];
  now: number;
}): AreaCounts {
  return options.type === 'FIX' ? fixCounts(options) : aiCounts(options);
}

/** Slots of the capacity without a bay sensor are unknown too: nobody can say they are free. */
function fixCounts(options: { capacity: number; bays: readonly BayReading[]; now: number }): AreaCounts {
  const { bays, now } = options;
  let free = 0;
  let occupied = 0;
  let unknown = Math.max(options.capacity - bays.length, 0);
  for (const bay of bays) {
    const status = bayStatus(bay, now);
    if (status === 'free') free++;
    else if (status === 'occupied') occupied++;
    else unknown++;
  }
  return {
    freeSlots: free + occupied === 0 && unknown > 0 ? null : free,
    occupiedSlots: occupied,
    unknownSlots: unknown,
    reportedCount: null,
    countWarning: null,
  };
}

function aiCounts(options: { capacity: number; bays: readonly BayReading[]; now: number }): AreaCounts {
  const fresh = options.bays.filter(
    (b) => b.reportedCount !== null && isReadingFresh(b.readingAt, options.now),
  );
  if (fresh.length === 0)
    return {
      freeSlots: null,
      occupiedSlots: 0,
      unknownSlots: options.capacity,
      reportedCount: null,
      countWarning: null,
    };
  const reported = fresh.reduce((sum, b) => sum + (b.reportedCount ?? 0), 0);
  const occupied = Math.min(Math.max(reported, 0), options.capacity);
  return {
    freeSlots: options.capacity - occupied,
    occupiedSlots: occupied,
    unknownSlots: 0,
    reportedCount: reported,
    countWarning: reported > options.capacity ? 'above_capacity' : reported < 0 ? 'negative' : null,
  };
}

/** The vehicles a reading stands for: a count as is, free spaces against the area's capacity. */
export function vehiclesOf(reading: ParkingReading, capacity: number): number | null {
  if (reading.vehicles !== undefined) return reading.vehicles;
  if (reading.freeSpaces !== undefined) return capacity - reading.freeSpaces;
  return null;
}

/** A bay overstays once it has been occupied longer than the area's maximum time plus grace. */
export function overstaysAt(
  since: Date,
  maxParkingMinutes: number | null,
  graceMinutes: number,
): number | null {
  if (maxParkingMinutes === null) return null;
  return since.getTime() + (maxParkingMinutes + graceMinutes) * 60_000;
}
