import type { Queryable, StepResults, Transaction } from './db';

/** Steps one after another: a connection that takes one statement at a time (node-postgres). */
async function stepByStep<const T extends readonly (() => Promise<unknown>)[]>(
  steps: T,
): Promise<StepResults<T>> {
  const results: unknown[] = [];
  for (const step of steps) results.push(await step());
  return results as StepResults<T>;
}

/** Steps started together: PGlite runs a transaction's statements in the order they arrive. */
async function pipelined<const T extends readonly (() => Promise<unknown>)[]>(
  steps: T,
): Promise<StepResults<T>> {
  const settled = await Promise.allSettled(steps.map((step) => step()));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as StepResults<T>;
}

/**
 * A transaction handle over `statements`; `pipelines`: whether its connection takes steps together;
 * `prepared`: the same statements as named prepared statements, where the connection has them.
 */
export function transactionHandle(
  statements: Queryable,
  pipelines: boolean,
  prepared?: Queryable,
): Transaction {
  return { ...statements, pipeline: pipelines ? pipelined : stepByStep, ...(prepared ? { prepared } : {}) };
}
