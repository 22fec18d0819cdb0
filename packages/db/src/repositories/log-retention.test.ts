import { expect, it } from 'vitest';
import type { Queryable } from '../db';
import { forEachDb } from '../testing';
import { insertCompany, insertDevice } from './deletion-test-support';
import { purgeExpiredLogs } from './log-retention';

const DAY = 86_400_000;

/** One device log and one notification log entry of the device, created `daysAgo` days before `now`. */
async function logEntries(q: Queryable, companyId: number, deviceId: number, now: number, daysAgo: number) {
  const at = new Date(now - daysAgo * DAY);
  await q.query(
    `INSERT INTO device_logs (device_id, company_id, level, message, created_at) VALUES ($1, $2, 5, $3, $4)`,
    [deviceId, companyId, `${daysAgo} days`, at],
  );
  await q.query(
    `INSERT INTO notification_log (company_id, device_id, channel, recipient, status, created_at)
     VALUES ($1, $2, 'email', $3, 'sent', $4)`,
    [companyId, deviceId, `${daysAgo} days`, at],
  );
}

async function left(q: Queryable, companyId: number): Promise<{ logs: string[]; notifications: string[] }> {
  const logs = await q.query<{ message: string }>(
    'SELECT message FROM device_logs WHERE company_id = $1 ORDER BY created_at',
    [companyId],
  );
  const notifications = await q.query<{ recipient: string }>(
    'SELECT recipient FROM notification_log WHERE company_id = $1 ORDER BY created_at',
    [companyId],
  );
  return { logs: logs.rows.map((r) => r.message), notifications: notifications.rows.map((r) => r.recipient) };
}

forEachDb((suite) => {
  it('deletes the entries older than the cutoff in every company, and keeps the rest', async () => {
    const now = Date.now();
    const a = await insertCompany(suite.db, 'A');
    const b = await insertCompany(suite.db, 'B');
    const deviceA = await insertDevice(suite.db, a);
    const deviceB = await insertDevice(suite.db, b);
    for (const days of [200, 91, 89, 1]) await logEntries(suite.db, a, deviceA, now, days);
    await logEntries(suite.db, b, deviceB, now, 120);

    const deleted = await purgeExpiredLogs(suite.db, { before: new Date(now - 90 * DAY) });

    expect(deleted).toEqual({ device_logs: 3, notification_log: 3 });
    expect(await left(suite.db, a)).toEqual({
      logs: ['89 days', '1 days'],
      notifications: ['89 days', '1 days'],
    });
    expect(await left(suite.db, b)).toEqual({ logs: [], notifications: [] });
    // Nothing old is left: the next pass deletes nothing.
    expect(await purgeExpiredLogs(suite.db, { before: new Date(now - 90 * DAY) })).toEqual({
      device_logs: 0,
      notification_log: 0,
    });
  });

  it('goes batch by batch until none is left, and stops at its time budget', async () => {
    const now = Date.now();
    const company = await insertCompany(suite.db, 'Batches');
    const device = await insertDevice(suite.db, company);
    for (let i = 0; i < 7; i++) await logEntries(suite.db, company, device, now, 100 + i);
    const before = new Date(now - 90 * DAY);

    // A clock past the budget after each batch: one batch per table, the rest waits for the next pass.
    let tick = 0;
    const slow = await purgeExpiredLogs(suite.db, {
      before,
      batchSize: 3,
      budgetMs: 1,
      clock: () => tick++ * 10,
    });
    expect(slow).toEqual({ device_logs: 3, notification_log: 3 });

    const rest = await purgeExpiredLogs(suite.db, { before, batchSize: 3 });
    expect(rest).toEqual({ device_logs: 4, notification_log: 4 });
    expect(await left(suite.db, company)).toEqual({ logs: [], notifications: [] });
  });
});
