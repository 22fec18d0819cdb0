import type { Config } from '@iot/config';
import type { Db } from '@iot/db';
import type { Logger, Service } from '@iot/runtime';

export interface StartRulesWorkerOptions {
  config: Config;
  db: Db;
  log: Logger;
}

/**
 * Evaluates virtual data fields, rules and sensor checks on every uplink and raises alarms.
 * The embedded platform calls this in its own process; `main.ts` runs it standalone (distributed profile).
 */
export async function startRulesWorker({ config, db, log }: StartRulesWorkerOptions): Promise<Service> {
  // Fail fast when the database is unreachable rather than on the first job.
  await db.query('SELECT 1');
  log.info({ profile: config.PROFILE }, 'rules-worker ready (evaluation arrives with the rules engine)');
  return { name: 'rules-worker', stop: async () => {} };
}
