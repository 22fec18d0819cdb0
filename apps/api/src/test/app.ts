import { loadConfig } from '@iot/config';
import type { Db } from '@iot/db';
import { type BuildAppOptions, buildApp } from '../app';

// Suites log in far more often per minute than a person; tests of the limits pass their own.
const GENEROUS = { max: 100_000, windowMs: 60_000 };

/** The app over a test database, quiet, with a fixed secret; options override the defaults. */
export function buildTestApp(db: Db, options: Partial<BuildAppOptions> = {}) {
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'http://console.test' }),
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
  };
  return buildApp({
    config,
    db,
    version: '1.2.3-test',
    ...options,
    // Most suites edit users and sessions by SQL between requests; auth-cache.test.ts tests the cache.
    session: { cacheSeconds: 0, ...options.session },
    rateLimits: {
      loginPerAddress: GENEROUS,
      loginFailuresPerAddress: GENEROUS,
      forgotPerAddress: GENEROUS,
      ...options.rateLimits,
    },
  });
}
