export interface CoalesceOptions<I> {
  /** Items per flush at most (default 1000); more wait for the next flush. */
  maxBatch?: number;
  /** Flushes running at once (default 1: on PGlite, one connection, more would only queue). */
  maxInFlight?: number;
  /** How much of maxBatch an item uses (default 1), e.g. the uplinks in a log batch. */
  weight?: (item: I) => number;
}

export interface Coalescer<I, O> {
  (item: I): Promise<O>;
  /** Items waiting for a flush plus those in running flushes (tests, metrics). */
  readonly pending: () => number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Latency-first batching of round trips. An idle coalescer flushes at once (after the current turn of
 * the event loop, so calls made in the same turn go together); calls made while a flush runs wait and
 * go together in the next one. Nothing waits for a batch to fill: at low load each call is its own
 * flush, under load the batches grow with the backlog, and the number of round trips stays bounded by
 * maxInFlight instead of growing with the number of callers.
 *
 * `flush` gets the items in call order and returns one result per item, in the same order; if it
 * throws, every caller of that flush gets the error (each decides about retrying on its own).
 */
export function coalesce<I, O>(
  flush: (items: I[]) => Promise<O[]>,
  options: CoalesceOptions<I> = {},
): Coalescer<I, O> {
  const maxBatch = options.maxBatch ?? 1000;
  const maxInFlight = options.maxInFlight ?? 1;
  const weight = options.weight ?? (() => 1);
  const queue: Waiting<I, O>[] = [];
  let inFlight = 0;
  let inFlightItems = 0;
  let scheduled = false;

  const schedule = () => {
    if (scheduled || queue.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(start);
  };

  const start = () => {
    scheduled = false;
    if (queue.length === 0 || inFlight >= maxInFlight) return;
    let used = 0;
    let count = 0;
    // At least one item, however heavy; then as many as fit.
    while (count < queue.length) {
      const next = weight((queue[count] as Waiting<I, O>).item);
      if (count > 0 && used + next > maxBatch) break;
      used += next;
      count += 1;
    }
    const batch = queue.splice(0, count);
    inFlight += 1;
    inFlightItems += batch.length;
    run(batch).finally(() => {
      inFlight -= 1;
      inFlightItems -= batch.length;
      schedule();
    });
    // Another flush may start beside this one when maxInFlight allows and items are left.
    schedule();
  };

  const run = async (batch: Waiting<I, O>[]) => {
    try {
      const results = await flush(batch.map((w) => w.item));
      if (results.length !== batch.length) {
        throw new Error(`coalesced flush returned ${results.length} results for ${batch.length} items`);
      }
      batch.forEach((w, i) => {
        w.resolve(results[i] as O);
      });
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  };

  const call = ((item: I) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    })) as Coalescer<I, O>;
  Object.defineProperty(call, 'pending', { value: () => queue.length + inFlightItems });
  return call;
}
