import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScopeThrottle } from './scope-throttle';

describe('ScopeThrottle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('acts at once on a lone request and once more at the end of a window that was asked again', () => {
    const acted: string[] = [];
    const throttle = new ScopeThrottle(1000, (scope) => acted.push(scope));
    throttle.request('2');
    expect(acted).toEqual(['2']);
    throttle.request('2');
    throttle.request('2');
    expect(acted).toEqual(['2']);
    vi.advanceTimersByTime(999);
    expect(acted).toEqual(['2']);
    vi.advanceTimersByTime(1);
    expect(acted).toEqual(['2', '2']);
    // The trailing action opened a window of its own; nothing asked in it, so nothing more.
    vi.advanceTimersByTime(5000);
    expect(acted).toEqual(['2', '2']);
    throttle.request('2');
    expect(acted).toEqual(['2', '2', '2']);
  });

  it('keeps each scope to its own window', () => {
    const acted: string[] = [];
    const throttle = new ScopeThrottle(1000, (scope) => acted.push(scope));
    throttle.request('2');
    throttle.request('3');
    throttle.request('2');
    expect(acted).toEqual(['2', '3']);
    vi.advanceTimersByTime(1000);
    expect(acted).toEqual(['2', '3', '2']);
  });

  it('acts on every request with a window of 0, and drops pending actions on close', () => {
    const acted: string[] = [];
    const direct = new ScopeThrottle(0, (scope) => acted.push(scope));
    direct.request('2');
    direct.request('2');
    expect(acted).toEqual(['2', '2']);
    const throttle = new ScopeThrottle(1000, (scope) => acted.push(`t${scope}`));
    throttle.request('2');
    throttle.request('2');
    throttle.close();
    vi.advanceTimersByTime(2000);
    expect(acted).toEqual(['2', '2', 't2']);
  });
});
