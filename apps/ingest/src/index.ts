import type { Config } from '@iot/config';
import type { Db } from '@iot/db';
import type { Logger, Service } from '@iot/runtime';

export interface StartIngestOptions {
  config: Config;
  db: Db;
  log: Logger;
}

/**
 * Uplink front doors (MQTT, HTTP, ChirpStack, The Things Stack), decoding and the storage writer.
 * The embedded platform calls this in its own process; `main.ts` runs it standalone (distributed profile).
 */
export async function startIngest({ config, db, log }: StartIngestOptions): Promise<Service> {
  // Fail fast when the database is unreachable rather than on the first job.
  await db.query('SELECT 1');
  log.info({ profile: config.PROFILE }, 'ingest ready (front doors arrive with the ingestion work)');
  return { name: 'ingest', stop: async () => {} };
}
