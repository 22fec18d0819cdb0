import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../types/api';
import type { Widget } from './types';

const prefetchWidgetData = vi.fn();
const preloadWidgetChunks = vi.fn();
vi.mock('./prefetch-widget-data', () => ({ prefetchWidgetData }));
vi.mock('./components/lazy-widgets', () => ({ preloadWidgetChunks }));
const prefetchQuery = vi.fn(async () => undefined);
vi.mock('../../lib/query-client', () => ({ queryClient: { prefetchQuery } }));

const { dashboardParam, prefetchRememberedDashboard, rememberShownDashboard } = await import(
  './remembered-dashboard'
);

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

const user = (id: number, company: number) => ({ id, company: { id: company } }) as unknown as CurrentUser;
const widgets = [
  { id: 7, type: 'map', x: 0, y: 0, w: 12, h: 10, title: 'Map', settings: { color_by: 'state' } },
] as unknown as Widget[];

describe('remembered dashboard', () => {
  beforeEach(() => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    prefetchWidgetData.mockClear();
    preloadWidgetChunks.mockClear();
  });

  it('reads the dashboard parameter of an address', () => {
    expect(dashboardParam('?dashboard=4')).toBe('4');
    expect(dashboardParam('')).toBe('');
  });

  it('prefetches the widgets last shown to this user at this address', () => {
    rememberShownDashboard(user(1, 2), '', widgets);
    prefetchRememberedDashboard(user(1, 2), '');
    expect(prefetchQuery).toHaveBeenCalledWith(
      expect.objectContaining({ queryKey: ['core', 'company', 'dashboards'] }),
    );
    expect(prefetchWidgetData).toHaveBeenCalledWith(widgets);
    expect(preloadWidgetChunks).toHaveBeenCalledWith(widgets);
  });

  it('prefetches nothing for another user, company or dashboard', () => {
    rememberShownDashboard(user(1, 2), '4', widgets);
    prefetchRememberedDashboard(user(3, 2), '?dashboard=4');
    prefetchRememberedDashboard(user(1, 5), '?dashboard=4');
    prefetchRememberedDashboard(user(1, 2), '?dashboard=6');
    prefetchRememberedDashboard(user(1, 2), '');
    expect(prefetchWidgetData).not.toHaveBeenCalled();
  });

  it('prefetches nothing when nothing readable was kept', () => {
    sessionStorage.setItem('shownDashboard', '{not json');
    prefetchRememberedDashboard(user(1, 2), '');
    expect(prefetchWidgetData).not.toHaveBeenCalled();
  });
});
