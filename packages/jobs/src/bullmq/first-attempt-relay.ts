import { type NatsConnection, NoRespondersError, type Subscription } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';

/**
 * Hands the first attempt of a job whose key the producer claimed (EnqueueOptions.claimed) straight to
 * a process that runs the job's processor, past the queue: the BullMQ hop (add, a worker's pick-up,
 * its claim and load round trips) is what made a notifier in a process of its own seconds slower than
 * one in the rules worker's process (issue #31). The queue still holds the job as a delayed back-up.
 */
export interface FirstAttemptRelay {
  /**
   * Offers a first attempt to one process serving `name`. `taken`: one started it; `refused`: nobody
   * serves the name or the one asked has no free slot (the caller may queue the job at once); `unknown`:
   * no answer in time, so one may have started it (the caller must leave the claim held).
   */
  offer(name: string, data: Uint8Array): Promise<'taken' | 'refused' | 'unknown'>;
  /** Answers offers of `name`: `take` starts the attempt and returns true, or returns false (busy). */
  serve(name: string, take: (data: Uint8Array) => boolean): Promise<() => void>;
  close(): Promise<void>;
}

const TAKEN = Uint8Array.of(1);
const REFUSED = Uint8Array.of(0);

/**
 * The relay on core NATS request/reply (no JetStream: an offer lost with its process is what the
 * back-up in the queue is for). Subjects `<prefix>.first.<job name>`, answered by one member of the
 * queue group `first-attempt`; NATS answers "no responders" at once when nobody serves a name.
 * Connects at once and reconnects for as long as it takes; until connected, offers are refused.
 */
export function createNatsFirstAttemptRelay(options: {
  servers: string;
  /** Subject prefix (the BullMQ prefix, so tests and benchmarks stay apart). */
  prefix: string;
  /** How long an offer waits for its answer (default 2 s). */
  timeoutMs?: number;
}): FirstAttemptRelay {
  const timeout = options.timeoutMs ?? 2_000;
  const subscriptions = new Set<Subscription>();
  let closed = false;
  /** Set once connected: an offer never waits for a connection (it is refused and queued instead). */
  let live: NatsConnection | undefined;
  // At once, and for as long as it takes (a server down at start-up too): processors wait for it.
  const connection = connect({
    servers: options.servers,
    noAsyncTraces: true,
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
  }).then((nc) => {
    live = nc;
    if (closed) void nc.close();
    return nc;
  });
  connection.catch(() => undefined);
  const subject = (name: string) => `${subjectToken(options.prefix)}.first.${subjectToken(name)}`;
  return {
    async offer(name, data) {
      const nc = live;
      if (closed || !nc || nc.isClosed()) return 'refused';
      try {
        const reply = await nc.request(subject(name), data, { timeout });
        return reply.data[0] === 1 ? 'taken' : 'refused';
      } catch (error) {
        // 503 "no responders": delivered to nobody, so nobody started it.
        return isNoResponders(error) ? 'refused' : 'unknown';
      }
    },
    async serve(name, take) {
      const nc = await connection;
      const subscription = nc.subscribe(subject(name), {
        queue: 'first-attempt',
        callback: (error, msg) => {
          if (error) return;
          let taken = false;
          try {
            taken = take(msg.data);
          } finally {
            msg.respond(taken ? TAKEN : REFUSED);
          }
        },
      });
      subscriptions.add(subscription);
      // The server knows of the subscription once a round trip came back: offers reach it from then on.
      await nc.flush();
      return () => {
        subscriptions.delete(subscription);
        subscription.unsubscribe();
      };
    },
    async close() {
      closed = true;
      for (const subscription of subscriptions) subscription.unsubscribe();
      subscriptions.clear();
      if (live && !live.isClosed()) await live.drain().catch(() => live?.close());
    },
  };
}

/** nats.js wraps the 503 "no responders" status in a RequestError whose cause says so. */
function isNoResponders(error: unknown): boolean {
  return error instanceof NoRespondersError || (error as Error | null)?.cause instanceof NoRespondersError;
}

/** A NATS subject token: no dots, wildcards or white space. */
function subjectToken(text: string): string {
  return text.replace(/[.*>\s]/g, '_');
}
