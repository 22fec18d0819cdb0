import { loadConfig } from '@iot/config';
import { openDb } from '@iot/db';
import { createLogger, runUntilSignal } from '@iot/runtime';
import { startRulesWorker } from './index.js';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'rules-worker' });
const db = await openDb(config);
const service = await startRulesWorker({ config, db, log });
// Listed in start order; they stop in reverse.
await runUntilSignal([{ name: 'db', stop: () => db.close() }, service], log);
