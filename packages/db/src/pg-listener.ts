/**
 * LISTEN on a dedicated PostgreSQL connection (a pooled one would lose its LISTEN whenever the pool
 * recycles it). The connection is opened on the first subscription and reopened after it fails, with a
 * backoff from 250 ms to 5 s. Notifications sent while it was down are lost for good, so every subscriber
 * is told when the connection is lost (`onLost`) and after each reconnect (`onReconnected`), and must
 * assume anything it derived may be stale.
 *
 * A connection can also die silently: a network path that drops packets without a reset leaves the
 * socket open, and without traffic nothing notices (TCP keepalive takes minutes to hours), while every
 * announcement is lost. A heartbeat query every `heartbeatMs` (30 s) that gets no answer within
 * `heartbeatTimeoutMs` (10 s) counts as a lost connection, so such a loss is known within 40 s.
 */
import pg from 'pg';
import type { Unlisten } from './db';

interface Subscriber {
  onNotification: (payload: string) => void;
  onReconnected: () => void;
  onLost: () => void;
}

export interface PgListenerOptions {
  onError?: (error: Error) => void;
  /** Time between heartbeat queries on the listening connection (ms); default 30 s. */
  heartbeatMs?: number;
  /** A heartbeat not answered within this counts as a lost connection (ms); default 10 s. */
  heartbeatTimeoutMs?: number;
}

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5_000;
/** The listening connection's name in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'iot-listener';

/** A channel name as a quoted identifier (LISTEN takes no parameters). */
function quoteChannel(channel: string): string {
  return `"${channel.replaceAll('"', '""')}"`;
}

export class PgListener {
  private readonly channels = new Map<string, Set<Subscriber>>();
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private backoffMs = MIN_BACKOFF_MS;
  private closed = false;
  private readonly onError: (error: Error) => void;
  private readonly heartbeatMs: number;
  private readonly heartbeatTimeoutMs: number;

  constructor(
    private readonly url: string,
    options: PgListenerOptions = {},
  ) {
    this.onError = options.onError ?? (() => {});
    this.heartbeatMs = options.heartbeatMs ?? 30_000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 10_000;
  }

  /** Resolves once LISTEN is in effect: every notification committed after that reaches `onNotification`. */
  async listen(
    channel: string,
    onNotification: (payload: string) => void,
    onReconnected: () => void = () => {},
    onLost: () => void = () => {},
  ): Promise<Unlisten> {
    if (this.closed) throw new Error('the database is closed');
    const subscriber: Subscriber = { onNotification, onReconnected, onLost };
    let subscribers = this.channels.get(channel);
    const first = subscribers === undefined;
    if (!subscribers) {
      subscribers = new Set();
      this.channels.set(channel, subscribers);
    }
    subscribers.add(subscriber);
    const client = await this.connected();
    // A fresh connection LISTENs to every channel already; an existing one learns the new channel here.
    if (first && client === this.client) await client.query(`LISTEN ${quoteChannel(channel)}`);
    return async () => {
      const set = this.channels.get(channel);
      set?.delete(subscriber);
      if (set && set.size === 0) {
        this.channels.delete(channel);
        await this.client?.query(`UNLISTEN ${quoteChannel(channel)}`).catch(() => {});
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.stopHeartbeat();
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private connected(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, application_name: LISTENER_APPLICATION_NAME });
    client.on('notification', (message) => {
      for (const subscriber of this.channels.get(message.channel) ?? []) {
        subscriber.onNotification(message.payload ?? '');
      }
    });
    client.on('error', (error) => {
      this.onError(error);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${quoteChannel(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      throw new Error('the database is closed');
    }
    this.client = client;
    this.backoffMs = MIN_BACKOFF_MS;
    this.startHeartbeat(client);
    return client;
  }

  /** Asks the connection a trivial query now and then; no answer in time counts as a lost connection. */
  private startHeartbeat(client: pg.Client): void {
    this.stopHeartbeat();
    this.heartbeat = setInterval(() => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`no answer to the listener's heartbeat within ${this.heartbeatTimeoutMs} ms`)),
          this.heartbeatTimeoutMs,
        );
      });
      Promise.race([client.query('SELECT 1'), timeout])
        .catch((error: unknown) => {
          if (this.client !== client) return;
          this.onError(error as Error);
          this.lost(client);
          // The socket may still look open: destroy it, so the old client cannot linger or deliver late.
          (
            client as unknown as { connection?: { stream?: { destroy(): void } } }
          ).connection?.stream?.destroy();
        })
        .finally(() => clearTimeout(timer));
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** The connection failed or ended: tell every subscriber, reconnect after a backoff, tell them again. */
  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.stopHeartbeat();
    for (const subscribers of this.channels.values())
      for (const subscriber of subscribers) subscriber.onLost();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connected().then(
        () => {
          for (const subscribers of this.channels.values())
            for (const subscriber of subscribers) subscriber.onReconnected();
        },
        (error: unknown) => {
          this.onError(error as Error);
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.retry.unref();
  }
}
