import type { Config } from '@iot/config';
import { checkDbReachable, type Db } from '@iot/db';
import { type EventLog, openEventLog } from '@iot/event-log';
import type { Logger, Service } from '@iot/runtime';
import type { FastifyInstance } from 'fastify';
import type { IngestContext } from './accept/ingest-context.js';
import { UplinkGate, type UplinkGateStats } from './accept/uplink-gate.js';
import { UplinkPublisher, type UplinkPublisherOptions } from './accept/uplink-publisher.js';
import { CodecRunner, type CodecRunnerOptions } from './decode/codec-runner.js';
import { DeviceDirectory, type DeviceDirectoryOptions } from './devices/device-directory.js';
import { followDeviceChanges } from './devices/follow-changes.js';
import { buildIngestHttpServer, INGEST_HTTP_PREFIX } from './front-doors/http-server.js';
import { type EmbeddedBroker, type MqttLimits, startEmbeddedBroker } from './front-doors/mqtt-embedded.js';
import { startExternalMqtt } from './front-doors/mqtt-external.js';
import {
  STORAGE_WRITER_GROUP,
  type StorageWriterStats,
  startStorageWriter,
} from './writer/storage-writer.js';

export {
  UPLINKS_TOPIC,
  type UplinkEnvelope,
  type UplinkKind,
  type UplinkSource,
} from '@iot/contracts/uplinks';
export { DeviceDirectory } from './devices/device-directory.js';
export { type IngestHttpOptions, ingestHttpRoutes } from './front-doors/http.js';
export { INGEST_HTTP_PREFIX } from './front-doors/http-server.js';
export { STORAGE_WRITER_GROUP, writeUplinkBatch } from './writer/storage-writer.js';

export interface StartIngestOptions {
  config: Config;
  db: Db;
  log: Logger;
  /**
   * The event log to publish to and consume from. The one-process platform should open one
   * (`openEventLog(config)`) and hand it to ingest and the rules worker alike, so both consume the same
   * in-process log. Without it ingest opens its own from config and closes it on stop.
   */
  eventLog?: EventLog;
  /** HTTP front door on its own port: default INGEST_PORT, else PORT + 1 (0 when PORT is 0); false: none. */
  http?: { port: number; host?: string } | false;
  /** Largest HTTP body (default 64 KiB). */
  bodyLimit?: number;
  /** MQTT: default `embedded` (aedes on MQTT_PORT) in the embedded profile, `external` (MQTT_URL) otherwise. */
  mqtt?: 'embedded' | 'external' | false;
  /** Embedded broker port (default MQTT_PORT). */
  mqttPort?: number;
  /** External broker: share group, connections, PUBACK window, client id prefix (see mqtt-external.ts). */
  mqttExternal?: {
    shareGroup?: string;
    connections?: number;
    window?: number;
    clientIdPrefix?: string;
    cleanSession?: boolean;
  };
  /** Run the storage writer in this process (default true). */
  storageWriter?:
    | boolean
    | { maxBatch?: number; maxWaitMs?: number; maxRowsPerWrite?: number; concurrentWrites?: number };
  /** Back-pressure settings and the topic (default `uplinks`) of the front doors. */
  publisher?: UplinkPublisherOptions;
  directory?: DeviceDirectoryOptions;
  /** User codecs: the worker pool's size and limits (tests). */
  codecs?: CodecRunnerOptions;
}

export interface IngestService extends Service {
  /** Base URL of the HTTP front door (`http://host:port/ingest/v1`), when it listens. */
  readonly httpUrl: string | undefined;
  /** Port of the embedded MQTT broker, when it runs. */
  readonly mqttPort: number | undefined;
  /** The embedded broker itself, when it runs: downlinks to devices are published through it. */
  readonly mqttBroker: EmbeddedBroker['broker'] | undefined;
  readonly eventLog: EventLog;
  /** The topic uplinks go to (`uplinks` unless overridden). */
  readonly topic: string;
  /** The HTTP server (for `inject` in tests), when it runs. */
  readonly http: FastifyInstance | undefined;
  /** Counters of the storage writer, when it runs in this process. */
  readonly writerStats: StorageWriterStats | undefined;
  /** Uplinks refused for their company (blocked, deleted, over its uplinks per minute), by reason. */
  readonly gateStats: UplinkGateStats;
  /** Drop a device from the lookup cache at once (after the API changed or deleted it). */
  invalidateDevice(id: number): void;
  /** Drop a company from the cache at once (after the API blocked, deleted it or changed its limits). */
  invalidateCompany(id: number): void;
  /** Drop every cached device, token and codec. */
  invalidateAll(): void;
}

/** The lookup cache's settings from the configuration (`INGEST_DEVICE_CACHE_ENTRIES`). */
export function deviceCacheOptions(config: Config): DeviceDirectoryOptions {
  return config.INGEST_DEVICE_CACHE_ENTRIES === undefined
    ? {}
    : { maxEntries: config.INGEST_DEVICE_CACHE_ENTRIES };
}

/** The embedded broker's connection limits from the configuration (issue #28). */
function mqttLimits(config: Config): MqttLimits {
  return {
    connectTimeoutMs: config.MQTT_CONNECT_TIMEOUT_SECONDS * 1000,
    maxConnections: config.MQTT_MAX_CONNECTIONS,
    maxConnectionsPerAddress: config.MQTT_MAX_CONNECTIONS_PER_ADDRESS,
    exemptLoopback: true,
  };
}

/** The MQTT port a broker takes when none is configured. */
const DEFAULT_MQTT_PORT = 1883;

/**
 * Starts the embedded broker on the configured port; with none configured on 1883, or, when another broker
 * on this machine already holds 1883, on a free port (logged, and shown in the platform's banner), so that
 * `npm start` works beside a local Mosquitto.
 */
async function startEmbeddedMqtt(
  ctx: Parameters<typeof startEmbeddedBroker>[0]['ctx'],
  configured: number | undefined,
  config: Config,
  log: Logger,
): Promise<EmbeddedBroker> {
  const host = config.HOST;
  const limits = mqttLimits(config);
  try {
    return await startEmbeddedBroker({ ctx, port: configured ?? DEFAULT_MQTT_PORT, host, limits });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (configured !== undefined) {
      throw new Error(
        `MQTT_PORT ${configured} is already in use (another MQTT broker?): choose a free port`,
        {
          cause: error,
        },
      );
    }
    log.warn(
      { port: DEFAULT_MQTT_PORT },
      'MQTT port 1883 is taken; the embedded broker uses a free port instead',
    );
    return startEmbeddedBroker({ ctx, port: 0, host, limits });
  }
}

function defaultHttpPort(config: Config): number {
  if (config.INGEST_PORT !== undefined) return config.INGEST_PORT;
  return config.PORT === 0 ? 0 : config.PORT + 1;
}

/**
 * Uplink front doors (MQTT, HTTP, ChirpStack, The Things Stack), decoding, the event log producer and
 * the storage writer. The embedded platform calls this in its own process; `main.ts` runs it standalone
 * (distributed profile). Stops in reverse: front doors first, then the writer (which finishes its batch),
 * then the log if ingest opened it.
 */
export async function startIngest(options: StartIngestOptions): Promise<IngestService> {
  const { config, db } = options;
  const log = options.log.child({ app: 'ingest' });
  // Fail fast when the database is unreachable rather than on the first uplink.
  await checkDbReachable(db);

  const ownLog = options.eventLog === undefined;
  // Embedded: an uplink is acknowledged (202, PUBACK) once the storage writer committed it, so kill -9
  // loses no acknowledged uplink (the in-process log is memory only; NATS and Kafka ignore the option).
  const eventLog = options.eventLog ?? (await openEventLog(config, { ackAfterGroup: STORAGE_WRITER_GROUP }));
  const directory = new DeviceDirectory(db, {
    onError: (error) => log.warn({ err: error }, 'recording the use of an integration token failed'),
    ...deviceCacheOptions(config),
    ...options.directory,
  });
  const codecs = new CodecRunner({ db, directory, log: log.child({ part: 'codecs' }) }, options.codecs);
  const gate = new UplinkGate(log.child({ part: 'uplink-gate' }));
  const ctx: IngestContext = {
    directory,
    gate,
    codecs,
    publisher: new UplinkPublisher(eventLog, options.publisher),
    log,
  };
  const stops: (() => Promise<void>)[] = [];

  try {
    // On PostgreSQL the API may run in another process: follow the device changes the database announces.
    const follower = await followDeviceChanges(db, directory, log.child({ part: 'device-changes' }));
    if (follower) stops.push(() => follower.stop());

    let writerStats: StorageWriterStats | undefined;
    if (options.storageWriter !== false) {
      const settings = typeof options.storageWriter === 'object' ? options.storageWriter : {};
      const writer = await startStorageWriter({
        db,
        eventLog,
        log: log.child({ part: 'storage-writer' }),
        topic: ctx.publisher.topic,
        ...settings,
      });
      writerStats = writer.stats;
      stops.push(() => writer.subscription.stop());
    }

    let mqttPort: number | undefined;
    let mqttBroker: EmbeddedBroker['broker'] | undefined;
    const mqttMode = options.mqtt ?? (config.PROFILE === 'embedded' ? 'embedded' : 'external');
    if (mqttMode === 'embedded') {
      const broker = await startEmbeddedMqtt(ctx, options.mqttPort ?? config.MQTT_PORT, config, log);
      mqttPort = broker.port;
      mqttBroker = broker.broker;
      stops.push(() => broker.close());
    } else if (mqttMode === 'external') {
      const external = await startExternalMqtt({ ctx, url: config.MQTT_URL, ...options.mqttExternal });
      stops.push(() => external.close());
    }

    let http: FastifyInstance | undefined;
    let httpUrl: string | undefined;
    const httpOptions = options.http ?? { port: defaultHttpPort(config), host: config.HOST };
    if (httpOptions !== false) {
      const server = buildIngestHttpServer({
        ctx,
        ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      });
      const address = await server.listen({ port: httpOptions.port, host: httpOptions.host ?? config.HOST });
      stops.push(() => server.close());
      http = server;
      httpUrl = `${address}${INGEST_HTTP_PREFIX}`;
      log.info({ url: httpUrl }, 'ingest HTTP front door listening');
    }

    log.info({ profile: config.PROFILE, eventLog: eventLog.kind, mqtt: mqttMode }, 'ingest ready');
    const topic = ctx.publisher.topic;
    return {
      name: 'ingest',
      checks: [{ name: 'event_log', check: async () => void (await eventLog.depth(topic)) }],
      httpUrl,
      mqttPort,
      mqttBroker,
      eventLog,
      topic: ctx.publisher.topic,
      http,
      writerStats,
      gateStats: gate.stats,
      invalidateDevice: (id) => directory.invalidateDevice(id),
      invalidateCompany: (id) => directory.invalidateCompany(id),
      invalidateAll: () => directory.invalidateAll(),
      stop: async () => {
        for (const stop of stops.reverse()) await stop();
        await codecs.dispose();
        if (ownLog) await eventLog.close();
      },
    };
  } catch (error) {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    if (ownLog) await eventLog.close();
    throw error;
  }
}
