/**
 * The widgets of the dashboard this tab showed last, kept in sessionStorage, so that a reload (or a return
 * to the console in the same tab) asks for the widgets' data and chunks as soon as the user is known: beside
 * the shell's and the dashboard's chunks and the dashboards' answer, not after them. A large fleet's map
 * list takes the server a few hundred milliseconds; it no longer waits for two round trips first. The
 * dashboards' answer still decides what is shown: a layout changed meanwhile only cost a prefetch, and its
 * widgets are prefetched again by the route loader. Kept per user and acting company (impersonation).
 */
import { queryClient } from '../../lib/query-client';
import type { CurrentUser } from '../../types/api';
import { dashboardsQueryOptions } from './api/get-dashboards';
import { preloadWidgetChunks } from './components/lazy-widgets';
import { prefetchWidgetData } from './prefetch-widget-data';
import type { Widget } from './types';

const STORAGE_KEY = 'shownDashboard';

interface RememberedDashboard {
  user: number;
  company: number;
  /** the `dashboard` parameter of the address it was shown at ('' without one: the first dashboard) */
  wanted: string;
  widgets: Widget[];
}

/** The `dashboard` parameter of an address's search ('' without one). */
export function dashboardParam(search: string): string {
  return new URLSearchParams(search).get('dashboard') ?? '';
}

function storage(): Storage | null {
  return typeof sessionStorage === 'undefined' ? null : sessionStorage;
}

/** Keeps the widgets shown for this user at this `dashboard` parameter (the route loader calls it). */
export function rememberShownDashboard(user: CurrentUser, wanted: string, widgets: readonly Widget[]): void {
  const remembered: RememberedDashboard = {
    user: user.id,
    company: user.company.id,
    wanted,
    widgets: [...widgets],
  };
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(remembered));
  } catch {
    // A full or disabled storage only costs the early prefetch.
  }
}

function readRemembered(): RememberedDashboard | null {
  try {
    const text = storage()?.getItem(STORAGE_KEY);
    const value = text ? (JSON.parse(text) as RememberedDashboard) : null;
    return value && Array.isArray(value.widgets) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Asks for the dashboards at once (the route loader finds the answer, or the request in flight) and for the
 * data and chunks of the widgets this user was last shown at this address (its search). The dashboards go
 * first: the server answers a tenant's reads one after another, and the grid waits for that answer.
 */
export function prefetchRememberedDashboard(user: CurrentUser, search: string): void {
  void queryClient.prefetchQuery(dashboardsQueryOptions());
  const remembered = readRemembered();
  if (!remembered || remembered.user !== user.id || remembered.company !== user.company.id) return;
  if (remembered.wanted !== dashboardParam(search)) return;
  prefetchWidgetData(remembered.widgets);
  preloadWidgetChunks(remembered.widgets);
}
