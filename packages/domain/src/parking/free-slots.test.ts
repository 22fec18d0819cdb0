import { describe, expect, it } from 'vitest';
import { computeAreaCounts, overstaysAt, parkingReadingOf, vehiclesOf } from './free-slots';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000);
const bay = (occupied: boolean | null, minutesAgo: number | null) => ({
  occupied,
  reportedCount: null,
  readingAt: minutesAgo === null ? null : ago(minutesAgo),
});
const counter = (count: number, minutesAgo = 1) => ({
  occupied: null,
  reportedCount: count,
  readingAt: ago(minutesAgo),
});

describe('computeAreaCounts', () => {
  it('FIX: free bays are those whose latest occupied is false; stale and silent bays are unknown', () => {
    const counts = computeAreaCounts({
      type: 'FIX',
      capacity: 5,
      now: NOW,
      bays: [bay(false, 5), bay(true, 5), bay(false, 8 * 60 + 1), bay(null, null), bay(false, 8 * 60)],
    });
    expect(counts).toEqual({
      freeSlots: 2,
      occupiedSlots: 1,
      unknownSlots: 2,
      reportedCount: null,
      countWarning: null,
    });
  });

  it('FIX: slots of the capacity without a sensor are unknown, and nothing known at all is null', () => {
    expect(computeAreaCounts({ type: 'FIX', capacity: 4, now: NOW, bays: [bay(true, 1)] })).toMatchObject({
      freeSlots: 0,
      occupiedSlots: 1,
      unknownSlots: 3,
    });
    expect(
      computeAreaCounts({ type: 'FIX', capacity: 2, now: NOW, bays: [bay(false, 600)] }).freeSlots,
    ).toBeNull();
  });

  it('AI: capacity minus the sum of the counts, clamped, with a plausibility warning', () => {
    expect(
      computeAreaCounts({ type: 'AI', capacity: 100, now: NOW, bays: [counter(30), counter(12)] }),
    ).toEqual({
      freeSlots: 58,
      occupiedSlots: 42,
      unknownSlots: 0,
      reportedCount: 42,
      countWarning: null,
    });
    expect(computeAreaCounts({ type: 'AI', capacity: 100, now: NOW, bays: [counter(130)] })).toMatchObject({
      freeSlots: 0,
      occupiedSlots: 100,
      reportedCount: 130,
      countWarning: 'above_capacity',
    });
    expect(computeAreaCounts({ type: 'AI', capacity: 100, now: NOW, bays: [counter(-4)] })).toMatchObject({
      freeSlots: 100,
      occupiedSlots: 0,
      reportedCount: -4,
      countWarning: 'negative',
    });
    // A count older than 8 hours says nothing any more.
    expect(
      computeAreaCounts({ type: 'AI', capacity: 100, now: NOW, bays: [counter(10, 481)] }),
    ).toMatchObject({
      freeSlots: null,
      unknownSlots: 100,
    });
  });
});

describe('parkingReadingOf', () => {
  it('reads occupied in its usual spellings, vehicle counts and free spaces; nothing else', () => {
    expect(parkingReadingOf({ occupied: true })).toEqual({ occupied: true });
    expect(parkingReadingOf({ occupied: 0, battery_level: 80 })).toEqual({ occupied: false });
    expect(parkingReadingOf({ vehicle_count: '17' })).toEqual({ vehicles: 17 });
    expect(parkingReadingOf({ pax_count: 3 })).toEqual({ vehicles: 3 });
    expect(parkingReadingOf({ free_spaces: 9 })).toEqual({ freeSpaces: 9 });
    expect(parkingReadingOf({ temperature: 21, occupied: 'maybe' })).toBeNull();
  });

  it('turns free spaces into vehicles against the capacity', () => {
    expect(vehiclesOf({ freeSpaces: 9 }, 40)).toBe(31);
    expect(vehiclesOf({ vehicles: 5, freeSpaces: 9 }, 40)).toBe(5);
    expect(vehiclesOf({ occupied: true }, 40)).toBeNull();
  });
});

describe('overstaysAt', () => {
  it('is the start of the stay plus the maximum time plus grace; no maximum, no overstay', () => {
    expect(overstaysAt(ago(0), 60, 10)).toBe(NOW + 70 * 60_000);
    expect(overstaysAt(ago(0), null, 10)).toBeNull();
  });
});
