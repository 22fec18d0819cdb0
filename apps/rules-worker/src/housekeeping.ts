import type { Config } from '@iot/config';
import {
  type Db,
  dropExpiredDeviceDataChunks,
  expireUnansweredDownlinks,
  purgeExpiredDeviceData,
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
  /** Device data points and chart rollups past their company's retention deleted (issue #29). */
  purgedDeviceData: { points: number; rollups: number };
}

/**
 * What the rules timer does beside the no-data checks, each tick: fails the LoRaWAN commands whose
 * network server has not reported on them within config.DOWNLINK_ACK_TIMEOUT_HOURS, and deletes log
 * entries older than config.LOG_RETENTION_DAYS (purgeExpiredLogs, at most 2 s a tick), purges one
 * client deleted more than config.CLIENT_PURGE_DAYS ago with all its data (issue #27), and deletes device
 * data past each company's retention (purgeExpiredDeviceData, at most 2 s a tick; issue #29).
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
  const purgedDeviceData = await purgeDeviceData(db, log, clock);
  return { expiredDownlinks: expired.length, purgedLogs, purgedCompany, purgedDeviceData };
}

async function purgeDeviceData(db: Db, log: Logger, clock: () => number) {
  const now = new Date(clock());
  const { points, rollups, complete } = await purgeExpiredDeviceData(db, { now });
  // TimescaleDB only: gives back the emptied chunks (untested here, no TimescaleDB on these machines).
  const chunks = complete ? await dropExpiredDeviceDataChunks(db, now) : 0;
  if (points + rollups + chunks > 0) {
    log.info({ points, rollups, chunks, complete }, 'device data past its retention deleted');
  }
  return { points, rollups };
}
