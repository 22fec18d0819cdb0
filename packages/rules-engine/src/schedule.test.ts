import { describe, expect, it } from 'vitest';
import { evaluateUplinks } from './evaluate-uplinks';
import { localTime } from './local-time';
import { isInSchedule } from './schedule';
import type { Rule } from './types';

const BERLIN = 'Europe/Berlin';
const utc = (iso: string) => Date.parse(`${iso}Z`);
const schedule = (start: string | null, end: string | null, weekdays?: number[]): Rule => ({
  id: 's',
  trigger: 'data',
  scheduleStart: start,
  scheduleEnd: end,
  scheduleWeekdays: weekdays ?? null,
});

describe('localTime in Europe/Berlin', () => {
  it.each([
    // instant (UTC), ISO weekday, local wall clock
    ['2026-03-02T08:00:00', 1, '09:00'],
    ['2026-03-29T00:59:59', 7, '01:59'], // last second of CET
    ['2026-03-29T01:00:00', 7, '03:00'], // 02:00 -> 03:00: the gap
    ['2026-10-25T00:30:00', 7, '02:30'], // first pass of the repeated hour (CEST)
    ['2026-10-25T01:30:00', 7, '02:30'], // second pass (CET)
    ['2026-10-25T23:30:00', 1, '00:30'],
  ])('%s is weekday %d at %s', (instant, weekday, wall) => {
    const time = localTime(utc(instant), BERLIN);
    expect(time.weekday).toBe(weekday);
    const minutes = Math.floor(time.secondsOfDay / 60);
    expect(
      `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
    ).toBe(wall);
  });

  it('gives the two passes of the repeated autumn hour different hour starts', () => {
    const first = localTime(utc('2026-10-25T00:30:00'), BERLIN).hourStart;
    const second = localTime(utc('2026-10-25T01:30:00'), BERLIN).hourStart;
    expect([first, second]).toEqual([utc('2026-10-25T00:00:00'), utc('2026-10-25T01:00:00')]);
  });
});

describe('isInSchedule', () => {
  it.each([
    // case, schedule, instant (UTC), expected
    ['no schedule: always', schedule(null, null), '2026-03-07T10:00:00', true],
    [
      'weekdays only, no times: Saturday refused',
      schedule(null, null, [1, 2, 3, 4, 5]),
      '2026-03-07T10:00:00',
      false,
    ],
    [
      '08:00-17:00 Mon-Fri, Monday 07:59',
      schedule('08:00', '17:00', [1, 2, 3, 4, 5]),
      '2026-03-02T06:59:00',
      false,
    ],
    [
      '08:00-17:00, Monday 08:00 (start inclusive)',
      schedule('08:00', '17:00', [1, 2, 3, 4, 5]),
      '2026-03-02T07:00:00',
      true,
    ],
    [
      '08:00-17:00, Monday 16:59:59',
      schedule('08:00', '17:00', [1, 2, 3, 4, 5]),
      '2026-03-02T15:59:59',
      true,
    ],
    [
      '08:00-17:00, Monday 17:00 (end exclusive)',
      schedule('08:00', '17:00', [1, 2, 3, 4, 5]),
      '2026-03-02T16:00:00',
      false,
    ],
    [
      '08:00-17:00 Mon-Fri, Saturday 10:00',
      schedule('08:00', '17:00', [1, 2, 3, 4, 5]),
      '2026-03-07T09:00:00',
      false,
    ],
    // Across midnight, Monday only: the window that starts Monday 22:00 runs into Tuesday.
    ['22:00-06:00 Mon, Monday 23:00', schedule('22:00', '06:00', [1]), '2026-03-02T22:00:00', true],
    [
      '22:00-06:00 Mon, Tuesday 02:00 belongs to Monday',
      schedule('22:00', '06:00', [1]),
      '2026-03-03T01:00:00',
      true,
    ],
    [
      '22:00-06:00 Mon, Tuesday 06:00 has ended',
      schedule('22:00', '06:00', [1]),
      '2026-03-03T05:00:00',
      false,
    ],
    [
      '22:00-06:00 Mon, Tuesday 23:00 is Tuesday',
      schedule('22:00', '06:00', [1]),
      '2026-03-03T22:00:00',
      false,
    ],
    [
      '22:00-06:00 Mon, Monday 02:00 belongs to Sunday',
      schedule('22:00', '06:00', [1]),
      '2026-03-02T01:00:00',
      false,
    ],
    [
      '22:00-06:00 Sun, Monday 02:00 belongs to Sunday',
      schedule('22:00', '06:00', [7]),
      '2026-03-02T01:00:00',
      true,
    ],
    // Spring forward, Sunday 29 March 2026: 02:00-03:00 does not exist.
    ['02:00-02:30 Sun, 01:59:59 CET', schedule('02:00', '02:30', [7]), '2026-03-29T00:59:59', false],
    [
      '02:00-02:30 Sun, 03:00 CEST: the window never occurs',
      schedule('02:00', '02:30', [7]),
      '2026-03-29T01:00:00',
      false,
    ],
    ['02:30-04:00 Sun, opens at 03:00 CEST', schedule('02:30', '04:00', [7]), '2026-03-29T01:00:00', true],
    ['02:30-04:00 Sun, 01:30 CET', schedule('02:30', '04:00', [7]), '2026-03-29T00:30:00', false],
    ['01:00-03:00 Sun, 01:59 CET', schedule('01:00', '03:00', [7]), '2026-03-29T00:59:00', true],
    [
      '01:00-03:00 Sun, closes at the jump to 03:00',
      schedule('01:00', '03:00', [7]),
      '2026-03-29T01:00:00',
      false,
    ],
    ['22:00-06:00 Sat, Saturday 22:00 CET', schedule('22:00', '06:00', [6]), '2026-03-28T21:00:00', true],
    [
      '22:00-06:00 Sat, Sunday 05:59 CEST (7 hours later)',
      schedule('22:00', '06:00', [6]),
      '2026-03-29T03:59:00',
      true,
    ],
    ['22:00-06:00 Sat, Sunday 06:00 CEST', schedule('22:00', '06:00', [6]), '2026-03-29T04:00:00', false],
    // Fall back, Sunday 25 October 2026: 02:00-03:00 happens twice.
    ['02:00-02:30 Sun, 02:15 CEST', schedule('02:00', '02:30', [7]), '2026-10-25T00:15:00', true],
    ['02:00-02:30 Sun, 02:15 CET (again)', schedule('02:00', '02:30', [7]), '2026-10-25T01:15:00', true],
    ['02:00-02:30 Sun, 02:45 CEST', schedule('02:00', '02:30', [7]), '2026-10-25T00:45:00', false],
    ['02:00-02:30 Sun, 02:45 CET', schedule('02:00', '02:30', [7]), '2026-10-25T01:45:00', false],
    [
      '22:00-06:00 Sat, Sunday 05:59 CET (9 hours later)',
      schedule('22:00', '06:00', [6]),
      '2026-10-25T04:59:00',
      true,
    ],
    ['22:00-06:00 Sat, Sunday 06:00 CET', schedule('22:00', '06:00', [6]), '2026-10-25T05:00:00', false],
    ['seconds in times: 08:00:30', schedule('08:00:30', '09:00:00'), '2026-03-02T07:00:15', false],
  ])('%s', (_case, rule, instant, expected) => {
    expect(isInSchedule(rule, localTime(utc(instant), BERLIN))).toBe(expected);
  });

  it('follows the zone it is given', () => {
    // 07:30 UTC is 08:30 in Berlin but 07:30 in London.
    const rule = schedule('08:00', '17:00');
    expect(isInSchedule(rule, localTime(utc('2026-03-02T07:30:00'), BERLIN))).toBe(true);
    expect(isInSchedule(rule, localTime(utc('2026-03-02T07:30:00'), 'Europe/London'))).toBe(false);
  });
});

describe('schedule in evaluateUplinks', () => {
  it('suppresses with reason schedule and fires when the window opens while the condition still holds', () => {
    const rule: Rule = {
      id: 'night',
      trigger: 'data',
      dataField: 'temperature',
      operator: 'gte',
      value: 30,
      scheduleStart: '22:00',
      scheduleEnd: '06:00',
      scheduleWeekdays: [1],
    };
    const at = ['2026-03-02T20:30:00', '2026-03-02T21:00:00', '2026-03-03T01:00:00'];
    const result = evaluateUplinks({
      device: { id: '1' },
      rules: [rule],
      uplinks: at.map((instant) => ({ receivedAt: `${instant}Z`, data: { temperature: 31 } })),
      now: '2026-03-04T00:00:00Z',
    });
    // 21:30 Berlin: outside; 22:00: fires; Tuesday 02:00: same episode.
    expect(result.suppressed.map((item) => [item.uplinkIndex, item.reason])).toEqual([
      [0, 'schedule'],
      [2, 'not_edge'],
    ]);
    expect(result.firings.map((firing) => firing.uplinkIndex)).toEqual([1]);
  });
});
