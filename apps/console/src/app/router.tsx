import { createBrowserRouter, type RouteObject } from 'react-router';
import { ServerErrorPage } from '../components/public/server-error-page';
import { EXTERNAL_LINKS } from '../lib/external-links';
import { collectSegments } from '../lib/route-segments';
import { RootGuard } from './root-guard';

/** Leaves the SPA for a provider page; the loader runs before any guard renders. */
function external(href: string) {
  return () => {
    window.location.replace(href);
    return null;
  };
}

const placeholder = (titleKey: string, path: string): RouteObject => ({
  path,
  handle: { titleKey },
  lazy: () => import('./routes/placeholder'),
});

/** Routes of spec section 2. Every screen is a lazy chunk so the first screen stays small. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    element: <RootGuard />,
    errorElement: <ServerErrorPage />,
    // Shown while the first lazy screen loads; the user is already known (fetched before mounting).
    HydrateFallback: () => null,
    children: [
      {
        lazy: () => import('./routes/public-layout'),
        children: [
          {
            path: 'login/reset',
            handle: { resetImage: true },
            lazy: () => import('./routes/forgot-password'),
          },
          {
            path: 'login/reset-password/:token',
            handle: { resetImage: true },
            lazy: () => import('./routes/reset-password'),
          },
          {
            path: 'login/require-reset-password',
            handle: { resetImage: true },
            lazy: () => import('./routes/require-reset-password'),
          },
          { path: 'login/:id?', lazy: () => import('./routes/login') },
          { path: 'eula', handle: { licenceImage: true }, lazy: () => import('./routes/eula') },
        ],
      },
      { path: 'create-account', loader: external(EXTERNAL_LINKS.createAccount), Component: () => null },
      { path: 'about-us', loader: external(EXTERNAL_LINKS.aboutUs), Component: () => null },
      { path: 'kontakt', loader: external(EXTERNAL_LINKS.contact), Component: () => null },
      { path: 'impressum', loader: external(EXTERNAL_LINKS.imprint), Component: () => null },
      { path: 'datenschutz', loader: external(EXTERNAL_LINKS.privacy), Component: () => null },
      {
        lazy: () => import('./routes/shell-layout'),
        children: [
          { path: 'dashboard', lazy: () => import('./routes/dashboard') },
          { path: 'devices/:filter?', lazy: () => import('./routes/devices') },
          { path: 'alarms', lazy: () => import('./routes/alarms') },
          { path: 'outbox', lazy: () => import('./routes/outbox') },
          { path: 'groups', lazy: () => import('./routes/groups') },
          { path: 'codecs', lazy: () => import('./routes/codecs') },
          { path: 'map', lazy: () => import('./routes/map') },
          { path: 'users', lazy: () => import('./routes/users') },
          {
            path: 'farming/fields',
            handle: { titleKey: 'page.farming-fields' },
            lazy: () => import('./routes/farming-fields'),
          },
          {
            path: 'farming/live',
            handle: { titleKey: 'page.farming-live' },
            lazy: () => import('./routes/farming-live'),
          },
          {
            path: 'farming/task',
            handle: { titleKey: 'page.farming-task' },
            lazy: () => import('./routes/farming-task'),
          },
          {
            path: 'farming/progress',
            handle: { titleKey: 'page.farming-progress' },
            lazy: () => import('./routes/farming-progress'),
          },
          { path: 'parking', lazy: () => import('./routes/parking') },
          {
            path: 'water/members/:id?',
            handle: { titleKey: 'page.water-members' },
            lazy: () => import('./routes/water-members'),
          },
          {
            path: 'water/shareddevices/:id?',
            handle: { titleKey: 'page.water-shared' },
            lazy: () => import('./routes/water-shared-devices'),
          },
          {
            path: 'water/devices/:id?',
            handle: { titleKey: 'page.water-devices' },
            lazy: () => import('./routes/water-devices'),
          },
          {
            path: 'water/:id',
            handle: { titleKey: 'page.water-dashboard' },
            lazy: () => import('./routes/water-dashboard'),
          },
          {
            path: 'water',
            handle: { titleKey: 'page.water-overview' },
            lazy: () => import('./routes/water-overview'),
          },
          placeholder('page.ordering', 'ordering'),
          { path: 'admin/clients', lazy: () => import('./routes/clients') },
          {
            path: 'admin/water',
            handle: { titleKey: 'page.admin-water' },
            lazy: () => import('./routes/admin-water'),
          },
          { path: 'styleguide/*', lazy: () => import('./routes/styleguide') },
        ],
      },
      { path: '*', lazy: () => import('./routes/not-found') },
    ],
  },
];

/** Segments of the routes above, for the start-up decision. */
export const ROUTE_SEGMENTS = collectSegments(routes);

export function createRouter() {
  return createBrowserRouter(routes);
}
