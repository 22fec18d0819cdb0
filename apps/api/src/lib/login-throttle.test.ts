import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  it('blocks an account after max failures within the window and frees it when the window ends', () => {
    let now = 0;
    const throttle = new LoginThrottle({ max: 3, windowMs: 1000 }, () => now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.isBlocked('A@x.de')).toBe(false);
      throttle.recordFailure('a@x.de');
    }
    expect(throttle.isBlocked('a@X.de')).toBe(true);
    expect(throttle.isBlocked('b@x.de')).toBe(false);
    now = 1000;
    expect(throttle.isBlocked('a@x.de')).toBe(false);
  });

  it('forgets failures after a successful login', () => {
    const throttle = new LoginThrottle({ max: 2, windowMs: 1000 }, () => 0);
    throttle.recordFailure('a@x.de');
    throttle.reset('a@x.de');
    throttle.recordFailure('a@x.de');
    expect(throttle.isBlocked('a@x.de')).toBe(false);
  });
});
