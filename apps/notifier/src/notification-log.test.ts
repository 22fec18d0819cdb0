import type { Queryable } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { expect, it } from 'vitest';
import { createNotificationLogWriter, type NotificationLogEntry } from './notification-log';
import { createAction, createFixture, type Fixture } from './test-support/fixtures';

// notification_log keeps the rule, action, alarm and device it was written for as recorded (migration
// 0017): only its company has a foreign key.

async function raiseAlarm(db: Queryable, f: Fixture): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO alarms (company_id, device_id, rule_id, data_field, value, message)
     VALUES ($1, $2, $3, 'temperature', 31.5, 'Too hot') RETURNING id::int`,
    [f.companyId, f.deviceId, f.ruleId],
  );
  return rows[0]!.id;
}

const entryFor = (f: Fixture, actionId: number, alarmId: number, key: string): NotificationLogEntry => ({
  companyId: f.companyId,
  ruleId: f.ruleId,
  ruleActionId: actionId,
  alarmId,
  deviceId: f.deviceId,
  channel: 'email',
  recipient: 'ops@example.test',
  status: 'sent',
  error: null,
  details: {},
  idempotencyKey: key,
});

forEachDb((suite) => {
  async function rowsOf(key: string) {
    const { rows } = await suite.db.query<Record<string, number | null>>(
      `SELECT rule_id::int, rule_action_id::int, alarm_id::int, device_id::int
         FROM notification_log WHERE idempotency_key = $1`,
      [key],
    );
    return rows;
  }

  it('keeps what a row was written for when the rule, action, alarm and device are deleted', async () => {
    const f = await createFixture(suite.db);
    const actionId = await createAction(suite.db, f, { type: 'email', recipients: ['ops@example.test'] });
    const alarmId = await raiseAlarm(suite.db, f);
    await createNotificationLogWriter(suite.db)(entryFor(f, actionId, alarmId, `kept-${f.ruleId}`));

    await suite.db.query('DELETE FROM devices WHERE id = $1', [f.deviceId]);

    const { rows: gone } = await suite.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM rules WHERE id = $1) + (SELECT count(*) FROM rule_actions WHERE id = $2)
            + (SELECT count(*) FROM alarms WHERE id = $3) + (SELECT count(*) FROM devices WHERE id = $4) AS n`,
      [f.ruleId, actionId, alarmId, f.deviceId],
    );
    expect(Number(gone[0]?.n)).toBe(0);
    expect(await rowsOf(`kept-${f.ruleId}`)).toEqual([
      { rule_id: f.ruleId, rule_action_id: actionId, alarm_id: alarmId, device_id: f.deviceId },
    ]);
  });

  it('logs the attempt of an action whose rule was deleted while it was being delivered', async () => {
    const f = await createFixture(suite.db);
    const actionId = await createAction(suite.db, f, { type: 'email', recipients: ['ops@example.test'] });
    const alarmId = await raiseAlarm(suite.db, f);
    await suite.db.query('DELETE FROM rules WHERE id = $1', [f.ruleId]);

    await createNotificationLogWriter(suite.db)(entryFor(f, actionId, alarmId, `late-${f.ruleId}`));

    expect(await rowsOf(`late-${f.ruleId}`)).toHaveLength(1);
  });

  it('deletes the log of a deleted company', async () => {
    const f = await createFixture(suite.db);
    const actionId = await createAction(suite.db, f, { type: 'email', recipients: ['ops@example.test'] });
    const alarmId = await raiseAlarm(suite.db, f);
    await createNotificationLogWriter(suite.db)(entryFor(f, actionId, alarmId, `company-${f.ruleId}`));

    await suite.db.query('DELETE FROM companies WHERE id = $1', [f.companyId]);

    expect(await rowsOf(`company-${f.ruleId}`)).toEqual([]);
  });
});
