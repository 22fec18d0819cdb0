import { describe, expect, it } from 'vitest';
import { ERROR_DEFINITIONS } from './catalogue';

describe('water association codes (issue #26)', () => {
  it('stay within 90050..90069 and speak German and English', () => {
    const water = ERROR_DEFINITIONS.filter((d) => d.code >= 90050 && d.code < 90070);
    expect(water.map((d) => d.code)).toEqual([90050, 90051, 90052, 90053, 90054, 90055, 90056, 90057, 90058]);
    for (const d of water) {
      expect([403, 404, 409]).toContain(d.status);
      expect(d.de).not.toBe(d.en);
    }
  });
});
