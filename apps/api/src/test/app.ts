import { loadConfig } from '@iot/config';
import type { Db } from '@iot/db';
import { type BuildAppOptions, buildApp } from '../app';

/** The app over a test database, quiet, with a fixed secret; options override the defaults. */
export function buildTestApp(db: Db, options: Partial<BuildAppOptions> = {}) {
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'http://console.test' }),
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
  };
  return buildApp({ config, db, version: '1.2.3-test', ...options });
}
