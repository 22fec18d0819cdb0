import { loadConfig } from '@iot/config';
import { databaseChecks, openDb } from '@iot/db';
import { createLogger, runUntilSignal, startProcessHealth } from '@iot/runtime';
import { startNotifier } from './index.js';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'notifier' });
// Health first: liveness answers while the app starts, readiness once it runs (HEALTH_PORT).
const processHealth = await startProcessHealth({
  port: config.HEALTH_PORT,
  host: config.HOST,
  metricsToken: config.METRICS_TOKEN,
  log,
});
const db = await openDb(config);
const service = await startNotifier({ config, db, log });
processHealth.started([...databaseChecks(db), ...(service.checks ?? [])]);
// Listed in start order; they stop in reverse (the health server last).
await runUntilSignal(
  [
    ...(processHealth.service ? [processHealth.service] : []),
    { name: 'db', stop: () => db.close() },
    service,
  ],
  log,
  {
    onSignal: () => processHealth.health.drain(),
    deadlineMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  },
);
