import type { Config } from '@iot/config';
import type { Db } from '@iot/db';
import type { Logger, Service } from '@iot/runtime';

export interface StartNotifierOptions {
  config: Config;
  db: Db;
  log: Logger;
}

/**
 * Dispatches actions per channel: email, SMS, voice, system message, http call, downlink.
 * The embedded platform calls this in its own process; `main.ts` runs it standalone (distributed profile).
 */
export async function startNotifier({ config, db, log }: StartNotifierOptions): Promise<Service> {
  // Fail fast when the database is unreachable rather than on the first job.
  await db.query('SELECT 1');
  log.info({ profile: config.PROFILE }, 'notifier ready (channels arrive with the rules engine)');
  return { name: 'notifier', stop: async () => {} };
}
