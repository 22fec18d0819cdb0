import type { Config } from '@iot/config';
import {
  type Db,
  expireUnansweredDownlinks,
  purgeExpiredLogs,
  purgeOneDeletedCompany,
  type RetainedLog,
} from '@iot/db';
import type { Logger } from '@iot/runtime';

export interface HousekeepingResult {
  /** LoRaWAN commands failed for want of a report from their network server. */
  expiredDownlinks: number;
  /** Log entries older than config.LOG_RETENTION_DAYS deleted (none when it is 0). */
  purgedLogs: Record<RetainedLog, number>;
  /** A client deleted more than config.CLIENT_PURGE_DAYS ago, purged with its data (at most one a tick). */
  purgedCompany: number | null;
}

/**
 * What the rules timer does beside the no-data checks, each tick: fails the LoRaWAN commands whose
 * network server has not reported on them within config.DOWNLINK_ACK_TIMEOUT_HOURS, and deletes log
 * entries older than config.LOG_RETENTION_DAYS (purgeExpiredLogs, at most 2 s a tick), and purges one
 * client deleted more than config.CLIENT_PURGE_DAYS ago with all its data (issue #27).
 */
export async function runHousekeeping(options: {
  db: Db;
  config: Pick<Config, 'DOWNLINK_ACK_TIMEOUT_HOURS' | 'LOG_RETENTION_DAYS' | 'CLIENT_PURGE_DAYS'>;
  log: Logger;
  clock: () => number;
}): Promise<HousekeepingResult> {
  const { db, config, log, clock } = options;
  const expired = await expireUnansweredDownlinks(db, {
    now: new Date(clock()),
    timeoutMs: config.DOWNLINK_ACK_TIMEOUT_HOURS * 3_600_000,
  });
  if (expired.length > 0) {
    log.warn({ downlinks: expired.map((d) => d.id) }, 'LoRaWAN commands without a report failed');
  }
  const logRetentionMs = config.LOG_RETENTION_DAYS * 86_400_000;
  const purgedLogs =
    logRetentionMs > 0
      ? await purgeExpiredLogs(db, { before: new Date(clock() - logRetentionMs), clock })
      : { device_logs: 0, notification_log: 0 };
  if (purgedLogs.device_logs + purgedLogs.notification_log > 0) {
    log.info(
      { purged: purgedLogs, days: config.LOG_RETENTION_DAYS },
      'log entries past their retention deleted',
    );
  }
  const purgedCompany = await purgeOneDeletedCompany(
    db,
    new Date(clock() - config.CLIENT_PURGE_DAYS * 86_400_000),
  );
  if (purgedCompany !== null)
    log.warn(
      { companyId: purgedCompany, days: config.CLIENT_PURGE_DAYS },
      'deleted client purged with all its data',
    );
  return { expiredDownlinks: expired.length, purgedLogs, purgedCompany };
}
