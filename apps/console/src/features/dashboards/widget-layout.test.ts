import { describe, expect, it } from 'vitest';
import type { Widget } from './types';
import {
  alignSeries,
  applyLayout,
  bandedSeries,
  bandPairs,
  chartMaxPoints,
  newWidget,
  periodToSettings,
  settingsToPeriod,
} from './widget-layout';

const table = (id: number, y: number, h: number): Widget => ({
  id,
  type: 'table',
  title: 't',
  x: 0,
  y,
  w: 6,
  h,
  settings: { device_ids: [], data_fields: [] },
});

describe('dashboard grid (12 columns)', () => {
  it.each([
    ['table', { device_ids: [], data_fields: [] }],
    ['line_chart', { series: [], range: '24h' }],
    ['map', { color_by: 'state' }],
  ] as const)('a new %s widget goes below the others with empty settings', (type, settings) => {
    const widget = newWidget(type, [table(1, 0, 4), table(2, 3, 5)], -1, 'New');
    expect(widget).toMatchObject({ id: -1, type, x: 0, y: 8, settings });
    expect(widget.x + widget.w).toBeLessThanOrEqual(12);
  });

  it('applies moved and resized positions and keeps them inside the 12 columns', () => {
    const moved = applyLayout(
      [table(1, 0, 4), table(2, 4, 4)],
      [
        { i: '1', x: 8, y: 2, w: 6, h: 3 },
        { i: '2', x: 0, y: 0, w: 20, h: 0 },
      ],
    );
    expect(moved.map(({ x, y, w, h }) => ({ x, y, w, h }))).toEqual([
      { x: 6, y: 2, w: 6, h: 3 },
      { x: 0, y: 0, w: 12, h: 1 },
    ]);
  });
});

describe('line chart periods (24 hours, 1 week, 1 month, 6 months, 1 year; day/week/month/year/range tabs)', () => {
  it.each([
    ['24h', 'day'],
    ['1w', 'week'],
    ['1m', 'month'],
    ['6m', 'year'],
    ['1y', 'year'],
  ] as const)('range %s is stored with the %s tab and read back', (span, tab) => {
    const settings = periodToSettings({ kind: 'last', span });
    expect(settings).toEqual({ range: span, tab });
    expect(settingsToPeriod(settings)).toEqual({ kind: 'last', span });
  });
  it.each([
    ['day', '24h'],
    ['week', '1w'],
    ['month', '1m'],
    ['year', '1y'],
  ] as const)('the %s tab is saved as its preset %s', (tab, range) => {
    expect(periodToSettings({ kind: tab, anchor: Date.now() })).toEqual({ range, tab });
  });
  it('a free range keeps its dates with the range tab', () => {
    const settings = periodToSettings({
      kind: 'range',
      from: Date.UTC(2026, 0, 1),
      to: Date.UTC(2026, 0, 31),
    });
    expect(settings.tab).toBe('range');
    expect(settingsToPeriod(settings)).toEqual({
      kind: 'range',
      from: Date.UTC(2026, 0, 1),
      to: Date.UTC(2026, 0, 31),
    });
  });
  it('an unknown range or broken dates fall back to 24 hours', () => {
    expect(settingsToPeriod({ range: 'forever' as never })).toEqual({ kind: 'last', span: '24h' });
    expect(settingsToPeriod({ range: { tsstart: 'x', tsend: 'y' }, tab: 'range' })).toEqual({
      kind: 'last',
      span: '24h',
    });
  });
});

describe('alignSeries', () => {
  it('joins the series on the union of their times: undefined (drawn across) where a series has no reading, null where its reading is empty', () => {
    expect(
      alignSeries([
        [
          [10, 20],
          [1, 2],
        ],
        [
          [15, 20],
          [5, null],
        ],
      ]),
    ).toStrictEqual([
      [10, 15, 20],
      [1, undefined, 2],
      [undefined, 5, null],
    ]);
  });
});

describe('chartMaxPoints', () => {
  it.each([
    [6, 1400, 500], // the bench's half-width chart: 700 px of viewport, a year in day buckets
    [6, 1920, 750],
    [12, 1920, 1500],
    [12, 3840, 1500], // never more than the API's default
    [2, 1400, 250], // never fewer than one step
    [12, 390, 250], // a phone
    [0, 1400, 250],
  ])('a chart %i columns wide in a %i px window asks for %i points', (columns, width, points) => {
    expect(chartMaxPoints(columns, width)).toBe(points);
  });

  it('rounds down to whole steps, so small changes of the window keep the query key', () => {
    expect(chartMaxPoints(6, 1400)).toBe(chartMaxPoints(6, 1480));
  });
});

describe('bandedSeries', () => {
  it('lays out the lines, then their minimums, then their maximums, a line without buckets as its own band', () => {
    const data = bandedSeries([
      { x: [10, 20], y: [2, 3], min: [1, 2], max: [4, 5] },
      { x: [20], y: [7] },
    ]);
    expect(data).toEqual([
      [10, 20],
      [2, 3],
      [undefined, 7],
      [1, 2],
      [undefined, 7],
      [4, 5],
      [undefined, 7],
    ]);
    // uPlot's bands (1-based, upper then lower): each line's maximum over its minimum.
    expect(bandPairs(2)).toEqual([
      [5, 3],
      [6, 4],
    ]);
  });
});
