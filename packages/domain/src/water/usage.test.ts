import { describe, expect, it } from 'vitest';
import { dailyUsage, hourlyUsage, memberUsageFigures, usageSteps, usageWarnings, waterYear } from './usage';

const m3 = { meterFactor: 1, unit: 'm3' } as const;
const at = (iso: string) => new Date(iso);

describe('usageSteps', () => {
  it('turns a rising counter into the volume of each interval', () => {
    const steps = usageSteps(
      [
        { at: at('2026-05-01T10:00:00Z'), value: 100 },
        { at: at('2026-05-01T11:00:00Z'), value: 103.5 },
        { at: at('2026-05-01T12:00:00Z'), value: 110 },
      ],
      m3,
    );
    expect(steps.map((s) => s.volume)).toEqual([3.5, 6.5]);
  });

  it('counts a counter reset from zero, never as negative use', () => {
    const steps = usageSteps(
      [
        { at: at('2026-05-01T10:00:00Z'), value: 5000 },
        { at: at('2026-05-01T11:00:00Z'), value: 5004 },
        { at: at('2026-05-01T12:00:00Z'), value: 3 }, // meter swapped / reset
        { at: at('2026-05-01T13:00:00Z'), value: 7 },
      ],
      m3,
    );
    expect(steps.map((s) => s.volume)).toEqual([4, 3, 4]);
    expect(steps.map((s) => s.counterDropped)).toEqual([false, true, false]);
  });

  it('counts a counter that only steps back a little as no use, not as a reset', () => {
    const steps = usageSteps(
      [
        { at: at('2026-05-01T10:00:00Z'), value: 2000 },
        { at: at('2026-05-01T11:00:00Z'), value: 1990 },
        { at: at('2026-05-01T12:00:00Z'), value: 1995 },
      ],
      m3,
    );
    expect(steps.map((s) => s.volume)).toEqual([0, 5]);
    expect(steps[0]?.counterDropped).toBe(true);
  });

  it('counts a rollover across the register’s wrap', () => {
    const steps = usageSteps(
      [
        { at: at('2026-05-01T10:00:00Z'), value: 99_998 },
        { at: at('2026-05-01T11:00:00Z'), value: 2 },
      ],
      { ...m3, rolloverAt: 100_000 },
    );
    expect(steps[0]?.volume).toBe(4);
  });

  it('applies unit and meter factor (litres × 10 per pulse)', () => {
    const steps = usageSteps(
      [
        { at: at('2026-05-01T10:00:00Z'), value: 0 },
        { at: at('2026-05-01T11:00:00Z'), value: 250 },
      ],
      { meterFactor: 10, unit: 'l' },
    );
    expect(steps[0]?.volume).toBeCloseTo(2.5);
  });
});

describe('periods in the association’s time zone', () => {
  // 2026-03-29: Europe/Berlin moves from +01:00 to +02:00 at 02:00 local; the day has 23 hours.
  const hourlyReadings = Array.from({ length: 26 }, (_, i) => ({
    at: new Date(Date.UTC(2026, 2, 28, 23, 0) + i * 3_600_000),
    value: i * 2,
  }));

  it('sums a 23-hour day across the spring DST change into one local day', () => {
    const days = dailyUsage(usageSteps(hourlyReadings, m3), 'Europe/Berlin');
    expect(days.get('2026-03-29')).toBe(46); // 23 hours × 2 m³
    expect(days.get('2026-03-30')).toBe(4);
  });

  it('keys hours by their instant, so the skipped local hour leaves no gap or double', () => {
    const hours = hourlyUsage(usageSteps(hourlyReadings, m3), 'Europe/Berlin');
    expect(hours.size).toBe(25);
    expect([...hours.values()].every((v) => v === 2)).toBe(true);
  });

  it('starts the water year at local midnight of its first month', () => {
    expect(waterYear(at('2026-11-28T05:00:00Z'), 1, 'Europe/Berlin')).toEqual({
      start: at('2025-12-31T23:00:00Z'),
      end: at('2026-12-31T23:00:00Z'),
    });
    expect(waterYear(at('2026-02-10T00:00:00Z'), 4, 'Europe/Berlin').start).toEqual(
      at('2025-03-31T22:00:00Z'),
    );
  });
});

describe('memberUsageFigures and warnings', () => {
  const year = { start: at('2026-01-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') };
  const base = {
    allowancePerYear: 1000,
    allowancePerHour: 10,
    maxHourly: 8,
    year,
    now: at('2026-07-02T12:00:00Z'), // half the year
    lastReadingAt: at('2026-07-02T11:30:00Z'),
  };

  it('gives percent, remaining, projection and reading age', () => {
    const f = memberUsageFigures({ ...base, used: 500 });
    expect(f.percent).toBe(50);
    expect(f.remaining).toBe(500);
    expect(f.projected).toBeCloseTo(1000, 0);
    expect(f.lastReadingAgeMinutes).toBe(30);
    expect(usageWarnings(f)).toEqual([]);
  });

  it('warns at 80 %, at 100 % and for an hour over the cap', () => {
    expect(usageWarnings(memberUsageFigures({ ...base, used: 850 }))).toEqual(['year_80']);
    expect(usageWarnings(memberUsageFigures({ ...base, used: 1000 }))).toEqual(['year_80', 'year_100']);
    expect(usageWarnings(memberUsageFigures({ ...base, used: 10, maxHourly: 10.5 }))).toEqual(['hour_cap']);
  });

  it('has no percent or warning without an allowance', () => {
    const f = memberUsageFigures({ ...base, used: 5000, allowancePerYear: null, allowancePerHour: null });
    expect(f.percent).toBeNull();
    expect(usageWarnings(f)).toEqual([]);
  });
});

describe('isWaterDevice', () => {
  it('takes meters, flow meters, valves and pumps, nothing else', async () => {
    const { isWaterDevice } = await import('./water-devices');
    expect(isWaterDevice(['counter_1', 'battery_level'])).toBe(true);
    expect(isWaterDevice(['flow_rate'])).toBe(true);
    expect(isWaterDevice(['valve_2'])).toBe(true);
    expect(isWaterDevice(['pump_10'])).toBe(true);
    expect(isWaterDevice(['temperature', 'humidity'])).toBe(false);
    expect(isWaterDevice(['water_leak', 'counter_5', 'pump_11'])).toBe(false);
  });
});

describe('associationUsage and dueUsageWarnings', () => {
  it('warns at 80 % and 100 % per water year and for each recent hour over the cap', async () => {
    const { associationUsage, dueUsageWarnings } = await import('./association-usage');
    const now = at('2026-05-10T12:00:00Z');
    const year = waterYear(now, 1, 'Europe/Berlin');
    const readings = [
      { at: at('2026-02-01T10:00:00Z'), value: 0 },
      { at: at('2026-02-01T11:00:00Z'), value: 50 }, // an old hour over the cap: judged long ago
      { at: at('2026-05-10T09:00:00Z'), value: 60 },
      { at: at('2026-05-10T10:00:00Z'), value: 81 }, // 21 m³ in a recent hour, cap 20
      { at: at('2026-05-10T11:00:00Z'), value: 85 },
    ];
    const usage = associationUsage({
      members: [{ companyId: 7, allowancePerYear: 100, allowancePerHour: 20 }],
      meters: [{ countsAgainst: 7, readings, meterFactor: 1, unit: 'm3' }],
      timeZone: 'Europe/Berlin',
      year,
      now,
    });
    const m = usage.members[0]!;
    expect(m.used).toBe(85);
    expect(dueUsageWarnings(m, year, now).map((w) => [w.kind, w.periodStart.toISOString(), w.value])).toEqual(
      [
        ['year_80', year.start.toISOString(), 85],
        ['hour_cap', '2026-05-10T09:00:00.000Z', 21],
      ],
    );
    const over = associationUsage({
      members: [{ companyId: 7, allowancePerYear: 80, allowancePerHour: null }],
      meters: [{ countsAgainst: 7, readings, meterFactor: 1, unit: 'm3' }],
      timeZone: 'Europe/Berlin',
      year,
      now,
    });
    expect(dueUsageWarnings(over.members[0]!, year, now).map((w) => w.kind)).toEqual(['year_80', 'year_100']);
  });
});
