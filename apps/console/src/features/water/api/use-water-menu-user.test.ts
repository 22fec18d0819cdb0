import type { NwaSummary } from '@iot/contracts';
import { describe, expect, it } from 'vitest';
import { guardRouteAccess } from '../../../lib/guards';
import { testUser } from '../../../lib/test-user';
import { withWaterRelations } from './use-water-menu-user';

const summary = (over: Partial<NwaSummary>): NwaSummary => ({
  id: 4,
  name: 'WV Dreisamtal',
  city: null,
  role: 'member',
  is_admin: false,
  member_count: 2,
  open_request_count: 0,
  shared_device_count: 1,
  ...over,
});

describe('water relations for the guard and the menu (spec section 2)', () => {
  // A member company without the water_association module of its own.
  const member = testUser({}, { modules: [] });

  it('sends a company without module and relation to the dashboard', () => {
    expect(guardRouteAccess('/water/4', withWaterRelations(member, []))).toBe('/dashboard');
  });

  it('opens the water routes for a member without the module once its membership is known', () => {
    const withNwa = withWaterRelations(member, [summary({})]);
    expect(withNwa.company.relations?.nwa).toEqual([{ id: 4, name: 'WV Dreisamtal', is_admin: false }]);
    expect(guardRouteAccess('/water/4', withNwa)).toBeNull();
    expect(guardRouteAccess('/water/shareddevices/4', withNwa)).toBeNull();
  });

  it('takes the badge from the association’s own entry', () => {
    const nwa = testUser({}, { id: 4, is_nwa: true });
    const list = [summary({ role: 'association', is_admin: true, open_request_count: 3 })];
    expect(withWaterRelations(nwa, list).company.open_membership_requests).toBe(3);
    expect(withWaterRelations(nwa, list).company.relations?.nwa).toEqual([]);
  });
});
