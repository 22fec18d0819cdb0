import { describe, expect, it } from 'vitest';
import { toggledRoles } from './admin-role';

describe('toggledRoles (admin toggle sends the new roles)', () => {
  it.each([
    [['ROLE_MAINUSER'], true, ['ROLE_MAINUSER', 'ROLE_ADMIN']],
    [['ROLE_MAINUSER', 'ROLE_ADMIN'], false, ['ROLE_MAINUSER']],
    [['ROLE_ADMIN'], true, ['ROLE_ADMIN']],
    [[], false, []],
  ])('%j admin=%s -> %j', (roles, admin, expected) => {
    expect(toggledRoles(roles, admin)).toEqual(expected);
  });
});
