import { describe, expect, it } from 'vitest';
import { COLD_ROOM_KIND, COLD_ROOM_LIMIT, COLD_ROOM_NAME } from './demo-cold-room.js';
import { DEMO_FLEET } from './demo-fleet.js';
import { seededRandom } from './random.js';

describe('Demo Cold Room generator', () => {
  it('is a kind of the demo fleet, so the seed and the simulator both use it', () => {
    expect(DEMO_FLEET.find((k) => k.names.includes(COLD_ROOM_NAME))).toBe(COLD_ROOM_KIND);
  });

  it.each([1, 7, 20261121])('stays between 2 and 6 °C, below the rule limit of 8 °C (seed %i)', (seed) => {
    const rnd = seededRandom(seed);
    const temperatures: number[] = [];
    // A week at one-minute resolution covers every phase of the cycle many times.
    for (let minute = 0; minute < 7 * 24 * 60; minute += 1)
      temperatures.push(Number(COLD_ROOM_KIND.reading(minute / 60, rnd, 0).temperature));
    expect(Math.min(...temperatures)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...temperatures)).toBeLessThanOrEqual(6);
    expect(Math.max(...temperatures)).toBeLessThan(COLD_ROOM_LIMIT);
  });
});
