/** The rules bench's arguments, fixed settings and the ten rules every device has (see rules.bench.ts). */
import { createLogger } from '@iot/runtime';

/** ours (embedded), node-red, distributed, distributed-apart, both (ours and Node-RED) or all (default). */
export const which = process.argv[2] ?? 'all';
export const RATE = Number(process.argv[3] ?? 1000);
export const LATENCY_S = Number(process.argv[4] ?? 15);
export const THROUGHPUT_S = Number(process.argv[5] ?? 8);
export const DEVICES = Number(process.argv[6] ?? 100);
/** A second latency phase where only 1 in FEW_PERIOD uplinks fires (the rate the notifier is sized for). */
export const FEW_PERIOD = 50;
export const FEW_S = 8;
export const MOSQUITTO_URL = process.argv[7] ?? 'mqtt://127.0.0.1:1883';
/**
 * Node-RED's broker: a Mosquitto of its own with the shipped configuration (TCP_NODELAY, deep queues), as
 * the distributed side has, unless a Mosquitto URL is given on the command line.
 */
export const NODE_RED_OWN_MOSQUITTO = process.argv[7] === undefined;
/** Publishing to Mosquitto for Node-RED: a few anonymous connections carry all devices' topics. */
export const MOSQUITTO_CONNECTIONS = 4;
/** After publishing stops, mails still on their way are waited for at most this long (bounded run). */
export const DRAIN_MS = 20_000;
/**
 * Throughput phase, uplinks published and not yet evaluated. Node-RED: a Mosquitto with its default
 * configuration queues at most 1000 messages per subscriber (max_queued_messages) and drops the rest, so
 * stay below (also on its own Mosquitto, whose queues are deeper, so figures compare with earlier runs). Ours: the embedded
 * broker's PUBACK already waits for the event log; the window only keeps the backlog comparable.
 */
export const WINDOW_NODE_RED = 900;
export const WINDOW_OURS = 4000;
export const THRESHOLD = 500_000;
export const ABOVE_BASE = 1_000_000;
export const BELOW = 1;

/**
 * Our sides' SMTP URL for the bench's SMTP server on `port`. RULES_BENCH_SMTP_QUERY is appended as the
 * URL's query (e.g. `maxConnections=64`: nodemailer's pool settings, which SMTP_URL may carry).
 */
export function oursSmtpUrl(port: number): string {
  const query = process.env.RULES_BENCH_SMTP_QUERY;
  return `smtp://127.0.0.1:${port}${query ? `?${query}` : ''}`;
}

export const log = createLogger({ level: 'warn', name: 'bench-rules' });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : String(n));

// -------------------------------------------------------------------------------------------- the rules
interface Condition {
  operator: 'lte' | 'gte' | 'eq' | 'in' | 'out' | 'rie' | 'fae';
  value?: number;
  rangeMin?: number;
  rangeMax?: number;
  fires?: true;
}
/** Nine conditions that never hold for the values sent, then the one that mails. */
export const CONDITIONS: Condition[] = [
  { operator: 'lte', value: -100 },
  { operator: 'gte', value: 1e9 },
  { operator: 'eq', value: -999 },
  { operator: 'in', rangeMin: -1000, rangeMax: -900 },
  { operator: 'out', rangeMin: -1e9, rangeMax: 1e9 },
  { operator: 'rie', value: 1e9 },
  { operator: 'fae', value: -1e9 },
  { operator: 'lte', value: -200 },
  { operator: 'gte', value: 2e9 },
  { operator: 'gte', value: THRESHOLD, fires: true },
];
export const SUBJECT = 'bench {value}';
