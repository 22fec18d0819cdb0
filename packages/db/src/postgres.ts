import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable, QueryResult } from './db';
import { PgListener } from './pg-listener';
import { transactionHandle } from './pipeline';
import { assertNotInTransaction, runInTransactionContext, statementsOutsideTransactions } from './tx-guard';
import { DATE_ARRAY_OID, DATE_OID, INT8_ARRAY_OID, INT8_OID, parseDate, parseInt8 } from './types';

export interface PostgresOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Pool size; 10 by default. */
  max?: number;
  /** Told when an idle pooled connection fails (e.g. the server restarted); the pool replaces it. */
  onError?: (error: Error) => void;
}

// pg-types' TypeId list has no array types; text[] (oid 1009) splits an array literal into its element texts.
const getParser = pg.types.getTypeParser as (
  oid: number,
  format?: 'text' | 'binary',
) => (text: string) => unknown;
const parseTextArray = getParser(1009, 'text') as (text: string) => (string | null)[];

// Per-pool parsers (not pg.types.setTypeParser, which would change every pg client in the process).
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary') {
      if (oid === INT8_OID) return parseInt8;
      if (oid === INT8_ARRAY_OID) {
        return (text: string) => parseTextArray(text).map((v) => (v === null ? null : parseInt8(v)));
      }
      if (oid === DATE_OID) return parseDate;
      if (oid === DATE_ARRAY_OID) return parseTextArray;
    }
    return getParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** Names of prepared statements by SQL text: the same text, the same name, on every connection. */
const names = new Map<string, string>();

function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    if (names.size >= 1000) names.clear();
    name = `iot_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    names.set(sql, name);
  }
  return name;
}

/**
 * `client`'s statements as named prepared statements: each text is parsed once per connection, and with a
 * generic plan (plan_cache_mode) planned once. `onStale` is told when PostgreSQL refuses a statement whose
 * result columns changed under it (DDL): that connection keeps the statement, so it must not be reused.
 */
function wrapPrepared(client: pg.PoolClient, onStale: () => void): Queryable {
  return {
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      try {
        const result = await client.query({
          name: statementName(sql),
          text: sql,
          values: params as unknown[] | undefined,
        });
        return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        if ((error as { code?: string }).code === '0A000') onStale();
        throw error;
      }
    },
    exec: (sql: string) => wrap(client).exec(sql),
  };
}

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      const result = await client.query(sql, params as unknown[] | undefined);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters pg uses the simple query protocol, which runs several statements.
      await client.query(sql);
    },
  };
}

/** Opens a pooled PostgreSQL `Db`. A transaction holds one pooled client from BEGIN to COMMIT/ROLLBACK. */
export function openPostgres(options: PostgresOptions): Db {
  const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10, types });
  // An idle client that loses its connection (server restart) emits 'error' on the pool; without a
  // listener Node would crash the process. The pool discards that client and connects a new one.
  pool.on('error', (error) => options.onError?.(error));
  const direct = wrap(pool);
  const listener = new PgListener(options.url, { onError: options.onError });
  const db: Db = {
    kind: 'postgres',
    ...statementsOutsideTransactions(() => db, direct),
    async transaction(fn) {
      assertNotInTransaction(db, 'transaction');
      const client = await pool.connect();
      let broken = false;
      // A checked-out client has no pool listener: a connection the server ends (restart, terminate)
      // would emit an unhandled 'error' and crash the process. The statement in flight or the next one
      // rejects anyway; the client is discarded, not handed back.
      const onLost = (error: Error) => {
        broken = true;
        options.onError?.(error);
      };
      client.on('error', onLost);
      try {
        await client.query('BEGIN');
        const prepared = wrapPrepared(client, () => {
          broken = true;
        });
        const handle = transactionHandle(wrap(client), false, prepared);
        const result = await runInTransactionContext(db, () => fn(handle));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          // The connection itself failed: do not hand it back to the pool.
          broken = true;
        }
        throw error;
      } finally {
        client.off('error', onLost);
        client.release(broken);
      }
    },
    connections: () => ({
      inUse: pool.totalCount - pool.idleCount,
      total: pool.totalCount,
      waiting: pool.waitingCount,
    }),
    listen: (channel, onNotification, onReconnected, onLost) =>
      listener.listen(channel, onNotification, onReconnected, onLost),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
  return db;
}
