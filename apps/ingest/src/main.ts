import { loadConfig } from '@iot/config';
import { openDb } from '@iot/db';
import { createLogger, runUntilSignal } from '@iot/runtime';
import { startIngest } from './index.js';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'ingest' });
const db = await openDb(config);
const service = await startIngest({ config, db, log });
// Listed in start order; they stop in reverse.
await runUntilSignal([{ name: 'db', stop: () => db.close() }, service], log);
