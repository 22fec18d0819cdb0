import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from './open';
import { createTestDb, type TestDb } from './testing';

describe('openDb on PostgreSQL', () => {
  let target: TestDb;
  beforeAll(async () => {
    target = await createTestDb('postgres', { migrate: false });
  });
  afterAll(() => target.drop());

  /** Whether a plain query answers while another caller holds a transaction open. */
  async function answersBesideATransaction(poolMax: number): Promise<boolean> {
    const db = await openDb({ DATABASE_URL: target.url, DATABASE_POOL_MAX: poolMax });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let began = () => {};
    const begun = new Promise<void>((resolve) => {
      began = resolve;
    });
    const transaction = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      began();
      await held;
    });
    await begun;
    const answered = await Promise.race([
      db.query('SELECT 1').then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 300)),
    ]);
    release();
    await transaction;
    await db.close();
    return answered;
  }

  it('sizes the connection pool by DATABASE_POOL_MAX', async () => {
    // One connection: the query waits for the transaction's; two: it gets its own.
    expect(await answersBesideATransaction(1)).toBe(false);
    expect(await answersBesideATransaction(2)).toBe(true);
  });
});
