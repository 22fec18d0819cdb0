/**
 * The rule cache with evaluateUplinkBatch, on PGlite and PostgreSQL: rules are read in full only when
 * their rows (or their actions) changed, states that only moved on are not written, and what is
 * written still carries the log cursor.
 */
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { createLogger } from '@iot/runtime';
import { describe, expect, it } from 'vitest';
import { evaluateUplinkBatch } from './evaluate-uplink-batch.js';
import { createRuleCache, type RuleCache } from './rule-cache.js';
import type { PositionedUplink } from './uplink-record.js';

const log = createLogger({ level: 'silent', name: 'rule-cache-test' });

async function insertId(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`${sql} RETURNING id`, params);
  return rows[0]!.id;
}

let offset = 0;
function uplinks(device: { deviceId: number; companyId: number }, values: number[], start: number) {
  return values.map(
    (temperature, i): PositionedUplink => ({
      uplink: {
        deviceId: device.deviceId,
        companyId: device.companyId,
        receivedAt: new Date(start + i * 1000).toISOString(),
        measuredAt: new Date(start + i * 1000).toISOString(),
        messageId: `m-${randomBytes(4).toString('hex')}`,
        data: { temperature },
      },
      partition: 0,
      offset: String(++offset),
      timestamp: start + i * 1000,
    }),
  );
}

async function batch(db: Db, cache: RuleCache, list: PositionedUplink[]) {
  const result = await evaluateUplinkBatch({ db, uplinks: list, now: Date.now(), log, ruleCache: cache });
  if (result.pendingRules) cache.commit(result.pendingRules);
  return result;
}

async function states(db: Queryable, ids: number[]) {
  const { rows } = await db.query<{ id: number; state: Record<string, unknown> }>(
    'SELECT id, state FROM rules WHERE id = ANY($1::bigint[]) ORDER BY id',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.state]));
}

forEachDb((suite) => {
  describe('rule cache', () => {
    it('reads rules again only after they or their actions changed, and writes only states that changed more than their progress', async () => {
      const { db } = suite;
      const companyId = await insertId(db, 'INSERT INTO companies (name) VALUES ($1)', [
        `Cache ${randomBytes(3).toString('hex')}`,
      ]);
      const deviceId = await insertId(db, 'INSERT INTO devices (company_id, name) VALUES ($1, $2)', [
        companyId,
        'Freezer',
      ]);
      const device = { companyId, deviceId };
      const rule = (name: string, operator: string, value: number) =>
        insertId(
          db,
          `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
           VALUES ($1, $2, $3, 'data', 'temperature', $4, $5)`,
          [companyId, deviceId, name, operator, value],
        );
      const first = await rule('never', 'lte', -100);
      const warm = await rule('warm', 'gte', 8);
      const rising = await rule('rising', 'rie', 50);
      await insertId(
        db,
        `INSERT INTO rule_actions (company_id, rule_id, type, subject) VALUES ($1, $2, 'system', 'warm')`,
        [companyId, warm],
      );
      const cache = createRuleCache({ lockRows: db.kind !== 'pglite' });
      const t0 = Date.parse('2026-07-01T10:00:00Z');

      await batch(db, cache, uplinks(device, [5], t0));
      expect(cache.fullReads()).toBe(1);
      const before = await states(db, [first, warm, rising]);

      // Nothing changed in the database: no full read; the level rules that hold nothing keep their
      // row (only their progress moved), the first rule carries the cursor, the edge rule its value.
      const second = await batch(db, cache, uplinks(device, [6], t0 + 60_000));
      expect(second.jobs).toEqual([]);
      expect(cache.fullReads()).toBe(1);
      const after = await states(db, [first, warm, rising]);
      expect(after.get(warm)).toEqual(before.get(warm));
      expect(after.get(first)?.lastAt).toBe(t0 + 60_000);
      expect(after.get(first)?._cursor).toMatchObject({ o: String(offset) });
      expect(after.get(rising)?.lastValue).toBe(6);

      // A firing changes the state: written, with its job.
      const third = await batch(db, cache, uplinks(device, [9], t0 + 120_000));
      expect(third.jobs).toHaveLength(1);
      expect((await states(db, [warm])).get(warm)).toMatchObject({ fired: true, lastAt: t0 + 120_000 });
      expect(cache.fullReads()).toBe(1);

      // The console lowers the threshold of "never" to 20 and adds a second action to "warm": both are
      // seen at the next batch (a full read of the device), not the cached definitions.
      await db.query('UPDATE rules SET operator = $2, value = $3 WHERE id = $1', [first, 'lte', 20]);
      await insertId(
        db,
        `INSERT INTO rule_actions (company_id, rule_id, type, subject) VALUES ($1, $2, 'system', 'again')`,
        [companyId, warm],
      );
      const fourth = await batch(db, cache, uplinks(device, [5, 10], t0 + 180_000));
      expect(cache.fullReads()).toBe(2);
      // 5 fires the changed rule (lte 20) once; 5 ends the episode of "warm" and 10 fires it again,
      // now with two actions.
      const byRule = new Map<number, number>();
      for (const job of fourth.jobs as { ruleId: number }[])
        byRule.set(job.ruleId, (byRule.get(job.ruleId) ?? 0) + 1);
      expect(Object.fromEntries(byRule)).toEqual({ [warm]: 2 });
      expect(
        (
          await db.query("SELECT 1 FROM device_logs WHERE device_id = $1 AND payload->>'ruleId' = $2", [
            deviceId,
            String(first),
          ])
        ).rows.length,
      ).toBeGreaterThan(0);

      // A change of the actions alone (the statement leaves the rule row alone) is seen too: the trigger
      // of migration 0012 touches the rule. An edited action makes the next batch read the rule in full...
      await db.query(`UPDATE rule_actions SET subject = 'edited' WHERE rule_id = $1 AND subject = 'again'`, [
        warm,
      ]);
      await batch(db, cache, uplinks(device, [5], t0 + 240_000));
      expect(cache.fullReads()).toBe(3);
      const fifth = await batch(db, cache, uplinks(device, [11], t0 + 300_000));
      expect(cache.fullReads()).toBe(3);
      expect(fifth.jobs).toHaveLength(2);
      // ... and a deleted action is gone from the next firing.
      const { rows: left } = await db.query<{ id: string }>(
        `DELETE FROM rule_actions WHERE rule_id = $1 AND subject = 'edited' RETURNING id::text`,
        [warm],
      );
      expect(left).toHaveLength(1);
      await batch(db, cache, uplinks(device, [5], t0 + 360_000));
      expect(cache.fullReads()).toBe(4);
      const sixth = await batch(db, cache, uplinks(device, [12], t0 + 420_000));
      const actionIds = (sixth.jobs as { actionId: number }[]).map((job) => String(job.actionId));
      expect(actionIds).toHaveLength(1);
      expect(actionIds).not.toContain(left[0]?.id);
    });

    it('keeps the rules of two batches running at once apart (PostgreSQL runs them side by side)', async () => {
      const { db } = suite;
      const companyId = await insertId(db, 'INSERT INTO companies (name) VALUES ($1)', [
        `Cache ${randomBytes(3).toString('hex')}`,
      ]);
      const devices = [];
      for (const name of ['North', 'South']) {
        const deviceId = await insertId(db, 'INSERT INTO devices (company_id, name) VALUES ($1, $2)', [
          companyId,
          name,
        ]);
        for (const [rule, value] of [
          ['never', -100],
          ['warm', 8],
        ] as const)
          await insertId(
            db,
            `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
             VALUES ($1, $2, $3, 'data', 'temperature', 'lte', $4)`,
            [companyId, deviceId, rule, value],
          );
        devices.push({ companyId, deviceId });
      }
      const cache = createRuleCache({ lockRows: db.kind !== 'pglite' });
      const t0 = Date.parse('2026-07-02T10:00:00Z');
      await Promise.all(devices.map((d) => batch(db, cache, uplinks(d, [20], t0))));
      expect(cache.fullReads()).toBe(2);
      await Promise.all(devices.map((d) => batch(db, cache, uplinks(d, [21], t0 + 60_000))));
      // Both batches found their rules cached: no device was read in full again.
      expect(cache.fullReads()).toBe(2);
      expect(cache.size()).toBe(4);
    });
  });
});
