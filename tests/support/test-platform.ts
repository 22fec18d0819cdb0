/**
 * The whole platform in the test's own process, on PGlite in a fresh temporary directory, on free ports,
 * with the demo data: what `npm start` runs, with the database handle at hand for setting up states.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@iot/config';
import type { Db } from '@iot/db';
import { type RunningPlatform, startPlatform } from '@iot/platform';
import { createLogger } from '@iot/runtime';

export interface TestPlatform {
  url: string;
  /** Base URL of the HTTP uplink front door, `http://127.0.0.1:<port>/ingest/v1`. */
  ingestUrl: string;
  /** Port of the embedded MQTT broker. */
  mqttPort: number;
  db: Db;
  stop: () => Promise<void>;
}

export async function startTestPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-test-platform-'));
  const config = loadConfig({
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // Tests edit users and companies by SQL between requests: no session kept in memory.
    SESSION_CACHE_SECONDS: '0',
    ...env,
  });
  const log = createLogger({ level: 'warn', name: 'test-platform' });
  const platform: RunningPlatform = await startPlatform({ config, log });
  if (!platform.ingestUrl || platform.mqttPort === undefined)
    throw new Error('the platform started no front doors');
  return {
    url: platform.url.replace('localhost', '127.0.0.1'),
    ingestUrl: platform.ingestUrl,
    mqttPort: platform.mqttPort,
    db: platform.db,
    stop: async () => {
      for (const service of [...platform.services].reverse()) await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
