import type { ModuleName } from '@iot/domain';
import type { CurrentUser } from '../types/api';
import type { TranslationKey } from '../types/translation-key';
import { EXTERNAL_LINKS } from './external-links';
import { hasModule, isSuperAdmin, ROLE_MAINUSER } from './guards';

/** Icon names map to lucide icons in the sidebar; keeping them as strings keeps this file DOM-free. */
export type MenuIcon =
  | 'dashboard'
  | 'devices'
  | 'clients'
  | 'groups'
  | 'map'
  | 'users'
  | 'parking'
  | 'fields'
  | 'tasks'
  | 'water'
  | 'water-members'
  | 'water-devices'
  | 'water-shared'
  | 'water-dashboard'
  | 'styleguide'
  | 'docs'
  | 'admin-tool'
  | 'link';

export interface MenuEntry {
  /** stable id, also used for data-testid="menu-<id>" */
  id: string;
  /** i18n key of the label */
  labelKey: TranslationKey;
  /** label parameters (the association name of an NWA entry) */
  labelParams?: { name: string };
  /** internal route */
  to?: string;
  /** external page */
  href?: string;
  icon: MenuIcon;
  badge?: number;
  children?: MenuEntry[];
  /**
   * The company lacks the module (spec section 6: locked modules show a hint): shown with a lock and
   * the hint instead of a link, so the module stays discoverable (issue #27).
   */
  locked?: boolean;
}

export interface MenuOptions {
  /** development hosts get the styleguide and docs links (spec section 2) */
  developmentHost?: boolean;
}

/** Side menu of spec section 2 "Menu entries": user -> entries, in display order. */
export function buildMenu(user: CurrentUser, options: MenuOptions = {}): MenuEntry[] {
  const entries: MenuEntry[] = [];
  const superAdmin = isSuperAdmin(user);

  entries.push({ id: 'dashboard', labelKey: 'menu.dashboard', to: '/dashboard', icon: 'dashboard' });
  entries.push({ id: 'devices', labelKey: 'menu.devices', to: '/devices', icon: 'devices' });
  if (superAdmin) {
    entries.push({ id: 'clients', labelKey: 'menu.clients', to: '/admin/clients', icon: 'clients' });
  } else {
    entries.push({ id: 'groups', labelKey: 'menu.groups', to: '/groups', icon: 'groups' });
  }
  // An entry of a licensed module links to it; an unlicensed one stays visible, locked, without a link.
  const moduleEntry = (module: ModuleName, entry: MenuEntry): MenuEntry => {
    if (hasModule(user, module)) return entry;
    const { to: _to, ...rest } = entry;
    return { ...rest, locked: true };
  };
  entries.push(moduleEntry('map_view', { id: 'map', labelKey: 'menu.map', to: '/map', icon: 'map' }));
  if (user.roles.includes(ROLE_MAINUSER)) {
    entries.push({ id: 'users', labelKey: 'menu.users', to: '/users', icon: 'users' });
  }
  entries.push(
    moduleEntry('parking', { id: 'parking', labelKey: 'menu.parking', to: '/parking', icon: 'parking' }),
  );
  entries.push(
    moduleEntry('farming', {
      id: 'farming-fields',
      labelKey: 'menu.farming-fields',
      to: '/farming/fields',
      icon: 'fields',
    }),
  );
  entries.push(
    moduleEntry('farming', {
      id: 'farming-task',
      labelKey: 'menu.farming-task',
      to: '/farming/task',
      icon: 'tasks',
    }),
  );
  if (user.company.is_nwa) {
    const requests = user.company.open_membership_requests ?? 0;
    entries.push({
      id: 'water-members',
      labelKey: 'menu.water-members',
      to: '/water/members',
      icon: 'water-members',
      ...(requests > 0 ? { badge: requests } : {}),
    });
    entries.push({
      id: 'water-devices',
      labelKey: 'menu.water-devices',
      to: '/water/devices',
      icon: 'water-devices',
    });
  }
  for (const nwa of user.company.relations?.nwa ?? []) {
    const base: MenuEntry = {
      id: `nwa-${nwa.id}`,
      labelKey: 'menu.nwa',
      labelParams: { name: nwa.name },
      icon: 'water',
    };
    if (nwa.is_admin) {
      base.children = [
        {
          id: `nwa-${nwa.id}-members`,
          labelKey: 'menu.water-members',
          to: `/water/members/${nwa.id}`,
          icon: 'water-members',
        },
        {
          id: `nwa-${nwa.id}-shared`,
          labelKey: 'menu.water-shared',
          to: `/water/shareddevices/${nwa.id}`,
          icon: 'water-shared',
        },
        {
          id: `nwa-${nwa.id}-devices`,
          labelKey: 'menu.water-devices',
          to: `/water/devices/${nwa.id}`,
          icon: 'water-devices',
        },
      ];
    } else {
      base.to = `/water/${nwa.id}`;
      base.icon = 'water-dashboard';
    }
    entries.push(base);
  }
  if (superAdmin && options.developmentHost) {
    entries.push({ id: 'styleguide', labelKey: 'menu.styleguide', to: '/styleguide', icon: 'styleguide' });
    entries.push({ id: 'docs', labelKey: 'menu.docs', href: EXTERNAL_LINKS.docs, icon: 'docs' });
  }
  if (superAdmin) {
    entries.push({
      id: 'admin-tool',
      labelKey: 'menu.admin-tool',
      href: EXTERNAL_LINKS.backendAdmin,
      icon: 'admin-tool',
    });
  }
  return entries;
}

/** Footer entries of the side menu: about us, contact, imprint, privacy, terms. */
export function buildFooterMenu(): MenuEntry[] {
  return [
    { id: 'about-us', labelKey: 'footer.about-us', href: EXTERNAL_LINKS.aboutUs, icon: 'link' },
    { id: 'contact', labelKey: 'footer.contact', href: EXTERNAL_LINKS.contact, icon: 'link' },
    { id: 'imprint', labelKey: 'footer.imprint', href: EXTERNAL_LINKS.imprint, icon: 'link' },
    { id: 'privacy', labelKey: 'footer.privacy', href: EXTERNAL_LINKS.privacy, icon: 'link' },
    { id: 'terms', labelKey: 'footer.terms', href: EXTERNAL_LINKS.terms, icon: 'link' },
  ];
}
