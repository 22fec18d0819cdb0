import { describe, expect, it } from 'vitest';
import { drawerSubtext } from './drawer-subtext';

describe('drawerSubtext (spec section 2: email, or authentication_id or identifier followed by the id)', () => {
  it.each([
    [{ id: 4, email: 'a@b.de', authentication_id: 'AUTH' }, 'a@b.de'],
    [{ id: 4, authentication_id: 'AUTH', identifier: 'IDF' }, 'AUTH 4'],
    [{ id: 4, identifier: 'IDF' }, 'IDF 4'],
    [{ id: 4 }, '4'],
    [{ id: 4, email: '', identifier: 'IDF' }, 'IDF 4'],
  ])('%j -> %s', (info, expected) => {
    expect(drawerSubtext(info)).toBe(expected);
  });
});
