/**
 * Standalone API process: configuration, database (migrated), listen. The embedded platform process
 * builds the same app with `buildApp` instead.
 */

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@iot/config';
import { DatabaseMissingError, startRollupBuilder } from '@iot/db';
import { exitAfter } from '@iot/runtime';
import packageJson from '../package.json' with { type: 'json' };
import { buildApp } from './app';
import { createInitialAdmin, openDatabase } from './first-start';

/** Without SESSION_SECRET the embedded profile keeps a generated one in DATA_DIR across restarts. */
function sessionSecretFrom(dataDir: string): string {
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

async function main(): Promise<void> {
  const loaded = loadConfig();
  const config = { ...loaded, SESSION_SECRET: loaded.SESSION_SECRET ?? sessionSecretFrom(loaded.DATA_DIR) };
  // Creates a missing database (or stops with one line) and migrates it under an advisory lock, so
  // replicas starting together apply each migration once.
  const db = await openDatabase(config, { migrate: true });
  const app = buildApp({ config, db, version: packageJson.version });
  await createInitialAdmin(db, config, { log: app.log, mailer: app.deps.mailer });
  // The distributed profile's chart rollups are built ahead here, in every API replica: the builder's
  // advisory lock per device makes a second replica find the buckets stored (see rollup-builder.ts).
  const rollupBuilder = startRollupBuilder({ db, log: app.log.child({ service: 'rollup-builder' }) });
  const shutdown = async () => {
    // Readiness answers 503 at once; requests in flight finish before the server closes.
    app.health.drain();
    exitAfter(config.SHUTDOWN_TIMEOUT_SECONDS * 1000, app.log);
    await rollupBuilder.stop();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ host: config.HOST, port: config.PORT });
}

main().catch((err) => {
  console.error(err instanceof DatabaseMissingError ? err.message : err);
  process.exit(1);
});
