/**
 * A server restart (or an administrator's pg_terminate_backend) ends the connections of transactions in
 * flight. The fault suite's PostgreSQL restart crashed the rules worker: a client checked out for a
 * transaction has no pool listener, and its 'error' event went unhandled. Now the transaction rejects, the
 * process lives, and the next transaction gets a fresh connection.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres } from './postgres';
import { createTestDb, type TestDb } from './testing';

let target: TestDb;
beforeAll(async () => {
  target = await createTestDb('postgres', { migrate: false });
});
afterAll(() => target.drop());

it('survives the connection of a running transaction being terminated by the server', async () => {
  const errors: Error[] = [];
  const db = openPostgres({ url: target.url ?? '', max: 2, onError: (error) => errors.push(error) });
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    const transaction = db.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Terminated while the transaction waits between two statements, as a restart does.
      await target.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.query('SELECT 1');
    });
    await expect(transaction).rejects.toThrow();
    expect(uncaught).toEqual([]);
    expect(errors.map((e) => (e as { code?: string }).code)).toContain('57P01');
    // The broken connection was not handed back: the next transaction works.
    await expect(db.transaction((tx) => tx.query('SELECT 1 AS one'))).resolves.toMatchObject({
      rows: [{ one: 1 }],
    });
  } finally {
    process.off('uncaughtException', onUncaught);
    await db.close();
  }
});
