import { describe, expect, it } from 'vitest';
import { decideMembershipRequest } from './membership-request';
import { applyMessageEvent } from './message-counts';

describe('message counts (spec section 4)', () => {
  it.each([
    [{ read: 2, unread: 3 }, 'read', { read: 3, unread: 2 }],
    [{ read: 2, unread: 0 }, 'read', { read: 3, unread: 0 }],
    [{ read: 2, unread: 3 }, 'delete', { read: 1, unread: 3 }],
    [{ read: 0, unread: 3 }, 'delete', { read: 0, unread: 3 }],
  ] as const)('%j after %s -> %j', (counts, event, next) => {
    expect(applyMessageEvent(counts, event)).toEqual(next);
  });
});

describe('membership requests (spec section 4)', () => {
  it.each([
    ['pending', 'accept', 'accepted'],
    ['pending', 'reject', 'rejected'],
    ['accepted', 'reject', null],
    ['rejected', 'accept', null],
  ] as const)('%s + %s -> %s', (state, decision, next) => {
    expect(decideMembershipRequest(state, decision)).toBe(next);
  });
});
