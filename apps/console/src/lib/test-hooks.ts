/**
 * Test-only overrides. They are read only in builds made with `vite build --mode test`
 * (VITE_TEST_HOOKS=1 from .env.test); in production builds the check is a constant and the
 * bundler drops the lookup, so no page script can shorten the idle timers.
 *
 * Browser tests set, before the page loads (e.g. Playwright addInitScript):
 *   window.__IOT_TEST__ = { idleSeconds: 2, reminderSeconds: 2, backgroundIndex: 3 }
 */
export interface TestHooks {
  idleSeconds?: number;
  reminderSeconds?: number;
  backgroundIndex?: number;
  /** maps register on window.__IOT_MAPS__ (by test id) so a test can project a device to a pixel */
  maps?: boolean;
}

declare global {
  interface Window {
    __IOT_TEST__?: TestHooks;
  }
}

export function testHooks(): TestHooks {
  if (import.meta.env.VITE_TEST_HOOKS !== '1') return {};
  return (typeof window !== 'undefined' && window.__IOT_TEST__) || {};
}
