/** The ingest bench's arguments and fixed settings (see ingest.bench.ts for the command line). */
import { createLogger } from '@iot/runtime';
import type { PublisherKind } from '../lib/publishers.js';

/** `publisher=raw|mqttjs` anywhere among the arguments (or IOT_BENCH_PUBLISHER); the rest are positional. */
export const args = process.argv.slice(2).filter((a) => !a.startsWith('publisher='));
export const PUBLISHER = (process.argv.find((a) => a.startsWith('publisher='))?.slice('publisher='.length) ??
  process.env.IOT_BENCH_PUBLISHER ??
  'raw') as PublisherKind;
if (PUBLISHER !== 'raw' && PUBLISHER !== 'mqttjs') throw new Error(`publisher=${PUBLISHER}: raw or mqttjs`);
export const which = args[0] ?? 'both';
export const DEVICES = Number(args[1] ?? 2000);
export const PHASE_S = Number(args[2] ?? 8);
export const CONNECTIONS_EMBEDDED = 100;
export const CONNECTIONS_MOSQUITTO = 8;
export const WINDOW = 64; // QoS 1 publishes in flight per connection in the closed-loop phase

/**
 * Open-loop phases: QoS 1 publishes a connection may have unacknowledged, as a device's in-flight window
 * (100 connections x 1000 = the in-process log's capacity). Without a bound the publishers' own queues in
 * this process would dominate the memory figure.
 */
export const OPEN_LOOP_WINDOW = 1000;
export const INGEST_MQTT_CONNECTIONS = Number(args[3] ?? 4);
/** `own`: a Mosquitto started here with the shipped configuration; else a broker URL (e.g. the machine's). */
export const MOSQUITTO = args[4] ?? 'own';
export const INGEST_WINDOW = Number(args[5] ?? 1000);
/**
 * Ingest processes beside the bench's (each front door + storage writer); 0 runs ingest in the bench's.
 * One by default, as the shipped deployment runs it: on these 2 cores a second process only adds work
 * (each caches every device and publishes to every partition, each writer commits half as much per
 * transaction) and stored fewer uplinks/s than one (tests/bench/README.md, "Ingest end to end").
 */
export const INGEST_PROCESSES = Number(args[6] ?? 1);
/**
 * The closed loop also keeps at most this many uplinks published but not yet stored. Mosquitto acknowledges
 * a publish itself (no back-pressure reaches the publisher from ingest) and, with its default
 * max_queued_messages 1000 per subscriber connection, drops the rest: on another broker the loop stays
 * below 4 x 1000. The shipped configuration queues far more.
 */
export const MAX_UNSTORED = MOSQUITTO === 'own' ? 20_000 : 3000;
export const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';
export const log = createLogger({ level: 'warn', name: 'bench' });
