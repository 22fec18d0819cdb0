import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../types/api';
import { buildFooterMenu, buildMenu } from './menu';
import { testUser } from './test-user';

const user = testUser;

// Entries a user can open; locked entries of unlicensed modules are checked on their own below.
const ids = (u: CurrentUser, developmentHost = false) =>
  buildMenu(u, { developmentHost })
    .filter((e) => !e.locked)
    .map((e) => e.id);

describe('buildMenu (spec section 2 "Menu entries")', () => {
  it('regular users: dashboard, devices, groups', () => {
    expect(ids(user())).toEqual(['dashboard', 'devices', 'groups']);
  });
  it('super admin (company 1): dashboard, devices, client management, backend admin tool', () => {
    expect(ids(user({ company_id: 1 }, { id: 1 }))).toEqual([
      'dashboard',
      'devices',
      'clients',
      'map',
      'parking',
      'farming-fields',
      'farming-task',
      'admin-tool',
    ]);
  });
  it('super admin on a development host also gets styleguide and docs', () => {
    expect(ids(user({ company_id: 1 }, { id: 1 }), true)).toContain('styleguide');
    expect(ids(user({ company_id: 1 }, { id: 1 }), true)).toContain('docs');
    expect(ids(user(), true)).not.toContain('styleguide');
  });
  it('main users get user management', () => {
    expect(ids(user({ roles: ['ROLE_MAINUSER'] }))).toEqual(['dashboard', 'devices', 'groups', 'users']);
    expect(ids(user({ roles: ['ROLE_ADMIN'] }))).not.toContain('users');
  });
  it('parking module: parking management; farming module: fields and task planner', () => {
    expect(ids(user({}, { modules: ['parking'] }))).toEqual(['dashboard', 'devices', 'groups', 'parking']);
    expect(ids(user({}, { modules: ['farming'] }))).toEqual([
      'dashboard',
      'devices',
      'groups',
      'farming-fields',
      'farming-task',
    ]);
  });
  it('map view module: a map entry after the groups', () => {
    expect(ids(user({}, { modules: ['map_view'] }))).toEqual(['dashboard', 'devices', 'groups', 'map']);
    expect(buildMenu(user({}, { modules: ['map_view'] })).find((e) => e.id === 'map')?.to).toBe('/map');
  });
  it('an NWA company gets water members (badge = open requests) and water devices', () => {
    const menu = buildMenu(user({}, { is_nwa: true, open_membership_requests: 3 }));
    const members = menu.find((e) => e.id === 'water-members');
    expect(members).toMatchObject({ to: '/water/members', badge: 3 });
    expect(menu.find((e) => e.id === 'water-devices')?.to).toBe('/water/devices');
  });
  it('no badge without open requests', () => {
    const menu = buildMenu(user({}, { is_nwa: true, open_membership_requests: 0 }));
    expect(menu.find((e) => e.id === 'water-members')?.badge).toBeUndefined();
  });
  it('members of an NWA: one entry per association; admin gets members, shared and devices', () => {
    const menu = buildMenu(
      user(
        {},
        {
          relations: {
            nwa: [
              { id: 3, name: 'WV Nord', is_admin: true },
              { id: 4, name: 'WV Süd' },
            ],
          },
        },
      ),
    );
    const admin = menu.find((e) => e.id === 'nwa-3');
    expect(admin?.labelParams).toEqual({ name: 'WV Nord' });
    expect(admin?.children?.map((c) => c.to)).toEqual([
      '/water/members/3',
      '/water/shareddevices/3',
      '/water/devices/3',
    ]);
    const plain = menu.find((e) => e.id === 'nwa-4');
    expect(plain?.children).toBeUndefined();
    expect(plain?.to).toBe('/water/4');
  });
});

describe('buildFooterMenu', () => {
  it('about us, contact, imprint, privacy, terms as external links', () => {
    const footer = buildFooterMenu();
    expect(footer.map((e) => e.id)).toEqual(['about-us', 'contact', 'imprint', 'privacy', 'terms']);
    for (const entry of footer) expect(entry.href).toMatch(/^https:\/\//);
  });

  it('shows unlicensed modules locked, without a link, instead of hiding them (issue #27)', () => {
    const menu = buildMenu(user({}, { modules: ['parking'] }));
    const locked = menu.filter((e) => e.locked).map((e) => e.id);
    expect(locked).toEqual(['map', 'farming-fields', 'farming-task']);
    for (const entry of menu.filter((e) => e.locked)) expect(entry.to).toBeUndefined();
    expect(menu.find((e) => e.id === 'parking')).toMatchObject({ to: '/parking' });
  });
});
