import { UPLINKS_TOPIC, type UplinkEnvelope } from '@iot/contracts/uplinks';
import type { EventLog } from '@iot/event-log';
import { metrics, secondsSince } from '@iot/runtime';

export interface UplinkPublisherOptions {
  /** How long a front door that must answer quickly (HTTP) waits for the log before refusing (ms). */
  acceptTimeoutMs?: number;
  /** Publishes waiting on the log at most; beyond, HTTP is refused at once (bounds memory). */
  maxInFlight?: number;
  /** Seconds a refused sender is told to wait (Retry-After). */
  retryAfterSeconds?: number;
  /** Topic to publish to (default `uplinks`; tests on a shared NATS server use their own). */
  topic?: string;
  /**
   * `publish` calls to the log at once; what arrives while they run goes together into the next call.
   * Default unbounded (a call per turn of the event loop): a bound of 4 gave no measurable gain on the
   * distributed bench (tests/bench/README.md), so it is an option, not the default.
   */
  maxCallsInFlight?: number;
}

const MAX_RECORDS_PER_CALL = 1000;
interface Pending {
  envelopes: readonly UplinkEnvelope[];
  /** Called once: no argument when the log accepted the envelopes, the error when it did not. */
  done: (error?: unknown) => void;
}

/** Tells one caller; a callback that throws does not keep the others from being told. */
function settle(caller: Pending, error?: unknown): void {
  try {
    caller.done(error);
  } catch (thrown) {
    // As an exception thrown in a callback would: uncaught.
    setImmediate(() => {
      throw thrown;
    });
  }
}

/** The log did not accept in time: answer with a retryable refusal (HTTP 503 + Retry-After). */
export class OverloadedError extends Error {
  override readonly name = 'OverloadedError';
  constructor(readonly retryAfterSeconds: number) {
    super('ingestion is overloaded, retry later');
  }
}

/**
 * Publishes envelopes to the `uplinks` topic keyed by device id, with the back-pressure policy of the
 * front doors. `publish` (MQTT) simply waits: the PUBACK waits with it, so a QoS 1 publisher slows
 * down. `publishOrRefuse` (HTTP) refuses at once when `maxInFlight` publishes are already waiting, and
 * gives up waiting after `acceptTimeoutMs`. A publish that timed out is not withdrawn (the port has no
 * cancel): it may still be stored, and the sender's retry carries the same message id for LNS uplinks
 * (ChirpStack deduplicationId, TTS correlation id), so the storage writer keeps it once.
 */
export class UplinkPublisher {
  readonly acceptTimeoutMs: number;
  readonly maxInFlight: number;
  readonly retryAfterSeconds: number;
  readonly topic: string;
  readonly maxCallsInFlight: number;
  private inFlight = 0;
  private readonly queue: Pending[] = [];
  private flushScheduled = false;
  private calls = 0;

  constructor(
    private readonly log: EventLog,
    options: UplinkPublisherOptions = {},
  ) {
    this.acceptTimeoutMs = options.acceptTimeoutMs ?? 2_000;
    this.maxInFlight = options.maxInFlight ?? 10_000;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 5;
    this.topic = options.topic ?? UPLINKS_TOPIC;
    this.maxCallsInFlight = options.maxCallsInFlight ?? Number.POSITIVE_INFINITY;
  }

  get waiting(): number {
    return this.inFlight;
  }

  /**
   * Resolves once the log accepted the envelopes. Envelopes of concurrent callers (many HTTP requests,
   * many MQTT connections) are gathered until the next turn of the event loop and sent in one
   * `publish` call of up to MAX_RECORDS_PER_CALL records: one JetStream/Kafka round trip serves them
   * all instead of one each. At most `maxCallsInFlight` calls run at once; what arrives meanwhile
   * waits for the next call (latency first: an idle publisher sends at once).
   */
  publish(envelopes: readonly UplinkEnvelope[]): Promise<void> {
    if (envelopes.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) =>
      this.submit(envelopes, (error) => (error === undefined ? resolve() : reject(error))),
    );
  }

  /**
   * `publish` with a callback instead of a promise (the MQTT front door's hot path: no promise per
   * uplink): `done()` once the log accepted the envelopes, `done(error)` when it did not.
   */
  submit(envelopes: readonly UplinkEnvelope[], done: (error?: unknown) => void): void {
    if (envelopes.length === 0) {
      queueMicrotask(() => done());
      return;
    }
    this.inFlight++;
    this.queue.push({ envelopes, done });
    this.schedule();
  }

  private schedule(): void {
    if (this.flushScheduled || this.queue.length === 0 || this.calls >= this.maxCallsInFlight) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    while (this.queue.length > 0 && this.calls < this.maxCallsInFlight) {
      const callers: Pending[] = [];
      let count = 0;
      while (
        this.queue.length > 0 &&
        (count === 0 || count + this.queue[0]!.envelopes.length <= MAX_RECORDS_PER_CALL)
      ) {
        const next = this.queue.shift()!;
        callers.push(next);
        count += next.envelopes.length;
      }
      const records: { key: string; value: UplinkEnvelope }[] = [];
      for (const caller of callers)
        for (const value of caller.envelopes) records.push({ key: String(value.deviceId), value });
      this.calls++;
      // Called synchronously by the port: a call refused at once (closed log) must still settle here.
      let call: Promise<void>;
      const started = performance.now();
      try {
        call = this.log.publish(this.topic, records);
      } catch (error) {
        call = Promise.reject(error);
      }
      call
        .then(
          () => {
            metrics.eventLogPublishSeconds.observe(secondsSince(started));
            this.inFlight -= callers.length;
            for (const caller of callers) settle(caller);
          },
          (error: unknown) => {
            this.inFlight -= callers.length;
            const failure = error ?? new Error('event log publish failed');
            for (const caller of callers) settle(caller, failure);
          },
        )
        .finally(() => {
          this.calls--;
          this.schedule();
        });
    }
  }

  async publishOrRefuse(envelopes: readonly UplinkEnvelope[]): Promise<void> {
    if (this.inFlight >= this.maxInFlight) throw new OverloadedError(this.retryAfterSeconds);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OverloadedError(this.retryAfterSeconds)), this.acceptTimeoutMs);
    });
    const publishing = this.publish(envelopes);
    // A publish that loses the race must not surface as an unhandled rejection later.
    publishing.catch(() => {});
    try {
      await Promise.race([publishing, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
