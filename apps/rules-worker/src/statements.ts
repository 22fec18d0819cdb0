/**
 * Starts statements of one transaction in order. `together` (PGlite in its worker thread): all are sent
 * at once and awaited together; the worker runs a transaction's statements in the order they arrive, so
 * PGlite does not wait for a round trip to this thread (busy with the front door, the storage writer
 * and the notifier) between them. Otherwise (node-postgres, which deprecates a query issued while one
 * runs on the same client) one after another. The first failure rejects; on PGlite the later statements
 * then fail on the aborted transaction and the transaction rolls back as before.
 */
export async function inOrder<T extends unknown[]>(
  together: boolean,
  ...starts: { [K in keyof T]: () => Promise<T[K]> }
): Promise<T> {
  if (together) return (await Promise.all(starts.map((start) => start()))) as T;
  const out: unknown[] = [];
  for (const start of starts) out.push(await start());
  return out as T;
}
