import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle';

const A = '203.0.113.1';
const B = '198.51.100.2';

describe('LoginThrottle', () => {
  const throttle = (now: () => number) =>
    new LoginThrottle({ pair: { max: 3, windowMs: 60_000 }, address: { max: 10, windowMs: 60_000 } }, now);

  it('makes an account and address pair wait after max failures, with a delay doubling per failure', () => {
    let now = 0;
    const t = throttle(() => now);
    for (let i = 0; i < 3; i++) {
      expect(t.isBlocked('A@x.de', A)).toBe(false);
      t.recordFailure('a@x.de', A);
    }
    expect(t.isBlocked('a@X.de', A)).toBe(true);
    expect(t.isBlocked('a@x.de', B)).toBe(false); // another address is not slowed
    expect(t.isBlocked('b@x.de', A)).toBe(false); // nor another account
    now = 1000;
    expect(t.isBlocked('a@x.de', A)).toBe(false);
    t.recordFailure('a@x.de', A); // the 4th: two seconds
    now = 2999;
    expect(t.isBlocked('a@x.de', A)).toBe(true);
    now = 3000;
    expect(t.isBlocked('a@x.de', A)).toBe(false);
  });

  it('caps the delay at the window and forgets a pair after it', () => {
    let now = 0;
    const t = throttle(() => now);
    for (let i = 0; i < 20; i++) t.recordFailure('a@x.de', A);
    now = 59_999;
    expect(t.isBlocked('a@x.de', A)).toBe(true);
    now = 60_000;
    expect(t.isBlocked('a@x.de', A)).toBe(false);
  });

  it('blocks an address with max failures across accounts until its window ends', () => {
    let now = 0;
    const t = throttle(() => now);
    for (let i = 0; i < 10; i++) t.recordFailure(`n${i}@x.de`, A);
    expect(t.isBlocked('other@x.de', A)).toBe(true);
    expect(t.isBlocked('other@x.de', B)).toBe(false);
    now = 60_000;
    expect(t.isBlocked('other@x.de', A)).toBe(false);
  });

  it("counts an account's failures from every address, and forgets only the pair on success", () => {
    const t = throttle(() => 0);
    t.recordFailure('a@x.de', A);
    t.recordFailure('a@x.de', A);
    expect(t.recordFailure('a@x.de', B)).toEqual({ failures: 3, addresses: 2 });
    t.reset('a@x.de', A);
    t.recordFailure('a@x.de', A);
    expect(t.isBlocked('a@x.de', A)).toBe(false);
    expect(t.recordFailure('a@x.de', B)).toEqual({ failures: 5, addresses: 2 });
  });
});
