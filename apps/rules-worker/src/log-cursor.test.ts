import { describe, expect, it } from 'vitest';
import { advanceCursor, compareOffsets, isCommitted, latestCursor } from './log-cursor.js';

const at = '2026-11-29T12:00:00.000Z';
const position = (offset: string, measuredAtMs?: number) => ({
  partition: 3,
  offset,
  timestamp: 1000,
  uplink: { measuredAt: at, messageId: `m${offset}` },
  ...(measuredAtMs === undefined ? {} : { measuredAtMs }),
});

describe('compareOffsets', () => {
  it('orders offsets as numbers, short or beyond 2^53', () => {
    expect(compareOffsets('9', '10')).toBe(-1);
    expect(compareOffsets('10', '10')).toBe(0);
    expect(compareOffsets('123456789012345', '99')).toBe(1);
    // NATS pack offsets: stream sequence x 1,000,000 + index, past what a double holds exactly.
    expect(compareOffsets('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareOffsets('9007199254740992', '9007199254740993')).toBe(-1);
    expect(compareOffsets('99', '9007199254740993')).toBe(-1);
  });
});

describe('the log cursor with a parsed measurement time', () => {
  it('treats measuredAtMs as the measuredAt text it was parsed from', () => {
    const parsed = advanceCursor(undefined, [position('7', Date.parse(at))]);
    const unparsed = advanceCursor(undefined, [position('7')]);
    expect(parsed).toEqual(unparsed);
    expect(isCommitted(parsed, position('7', Date.parse(at)))).toBe(true);
    expect(isCommitted(parsed, position('8', Date.parse(at)))).toBe(false);
  });

  it('takes the cursor with the later offset at the same producer time', () => {
    const older = advanceCursor(undefined, [position('9')]);
    const newer = advanceCursor(undefined, [position('10')]);
    expect(latestCursor([{ _cursor: older }, { _cursor: newer }])?.o).toBe('10');
    expect(latestCursor([{ _cursor: newer }, { _cursor: older }])?.o).toBe('10');
  });
});
