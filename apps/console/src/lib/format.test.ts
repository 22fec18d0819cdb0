import { describe, expect, it } from 'vitest';
import { formatDateTime, formatNumber, localeTag } from './format';

describe('locale formatting through Intl', () => {
  it('numbers follow the interface language', () => {
    expect(formatNumber(1234567.5, 'de')).toBe('1.234.567,5');
    expect(formatNumber(1234567.5, 'en')).toBe('1,234,567.5');
  });
  it('dates follow the interface language', () => {
    const date = new Date(Date.UTC(2026, 10, 21, 12, 0));
    expect(formatDateTime(date, 'de')).toMatch(/21\.11\.2026/);
    expect(formatDateTime(date, 'en')).toMatch(/21 Nov 2026/);
  });
  it('empty or invalid dates show nothing', () => {
    expect(formatDateTime(null, 'de')).toBe('');
    expect(formatDateTime('not a date', 'de')).toBe('');
  });
  it('unknown languages use the English tag', () => {
    expect(localeTag('xx')).toBe('en-GB');
  });
});
