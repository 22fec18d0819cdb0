/**
 * The platform's configuration, read and validated once at start-up.
 * Nothing else in the code base reads `process.env`: apps receive a `Config` and pass the
 * parts they need down as options (see ARCHITECTURE.md, "Configuration").
 */
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';

const Url = Type.String({ pattern: '^[a-z][a-z0-9+.-]*://' });

export const ConfigSchema = Type.Object({
  /** embedded = one process on PGlite with in-process log and queue; distributed = PostgreSQL, Redis, brokers. */
  PROFILE: Type.Union([Type.Literal('embedded'), Type.Literal('distributed')], { default: 'embedded' }),
  HOST: Type.String({ default: '0.0.0.0' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  /** Port of the uplink HTTP front door (its own server); unset: PORT + 1 (0 when PORT is 0). */
  INGEST_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /**
   * Devices (and, as many again, integration tokens) each ingest process keeps in its lookup cache; default
   * 100,000. A fleet larger than this makes devices miss the cache and every uplink of theirs costs a
   * database lookup (apps/ingest README, "Device lookups"); an entry takes well under 1 kB.
   */
  INGEST_DEVICE_CACHE_ENTRIES: Type.Optional(Type.Integer({ minimum: 1_000, maximum: 100_000_000 })),
  /** Where the embedded profile keeps its PGlite database and other state. */
  DATA_DIR: Type.String({ default: './data' }),
  /** PostgreSQL connection URL; required in the distributed profile. */
  DATABASE_URL: Type.Optional(Url),
  /**
   * PostgreSQL connections per process (pg's pool; default 10). In `PROFILE=distributed npm start` ingest's
   * storage writer, the rules worker, the notifier and the API share one pool.
   */
  DATABASE_POOL_MAX: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379' }),
  /** External MQTT broker for the distributed profile. */
  MQTT_URL: Type.String({ default: 'mqtt://127.0.0.1:1883' }),
  /**
   * Port of the embedded MQTT broker. Unset, it is 1883, and when another broker already holds 1883 the
   * embedded one takes a free port and says which (the start banner shows it); set, it must be free.
   */
  MQTT_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** Seconds the embedded broker waits for a new connection's CONNECT before it closes it. */
  MQTT_CONNECT_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 300, default: 10 }),
  /** Open connections the embedded broker keeps at most; more are refused at once. */
  MQTT_MAX_CONNECTIONS: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 50_000 }),
  /**
   * Open connections to the embedded broker from one remote address (loopback is exempt: the in-process
   * simulator and local tools). Devices behind one NAT share an address, so raise it for large sites.
   */
  MQTT_MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 100 }),
  NATS_URL: Type.Optional(Url),
  /** Comma-separated Kafka bootstrap brokers; when set, the event log uses Kafka. */
  KAFKA_BROKERS: Type.Optional(Type.String()),
  /** SMTP server for email, e.g. smtp://user:pass@mail.example.com:587; without it mail goes to the outbox. */
  SMTP_URL: Type.Optional(Url),
  MAIL_FROM: Type.String({ default: 'IoT Platform <no-reply@localhost>' }),
  TWILIO_ACCOUNT_SID: Type.Optional(Type.String()),
  TWILIO_AUTH_TOKEN: Type.Optional(Type.String()),
  TWILIO_FROM: Type.Optional(Type.String()),
  /** Overrides the Twilio API base URL (tests point it at a local endpoint). */
  TWILIO_BASE_URL: Type.Optional(Url),
  /** Secret for signing cookies; the embedded profile generates and keeps one in DATA_DIR when unset. */
  SESSION_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /**
   * Hours after sign-in when a session ends however busy it was (the idle expiry of two hours slides on
   * every use; this does not). The user then signs in again.
   */
  SESSION_MAX_AGE_HOURS: Type.Integer({ minimum: 1, maximum: 24 * 90, default: 12 }),
  /**
   * Seconds the API keeps a resolved session in memory (0: looks it up on every request). Changes made
   * through the API take effect at once in every API process; edits to the database from outside after
   * at most this long (apps/api/src/lib/auth-cache.ts).
   */
  SESSION_CACHE_SECONDS: Type.Integer({ minimum: 0, maximum: 300, default: 30 }),
  /**
   * Milliseconds the API's in-memory device lists may lag a stream of announced changes (latest values of
   * a reporting fleet): a company's lists are rebuilt at most once per this window, a lone change at once.
   */
  DEVICE_LIST_REFRESH_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 1000 }),
  /**
   * Seconds a process may take after SIGTERM to finish in-flight batches and jobs; past it, it exits with
   * code 1 and what was left is redelivered (event log) or retried (jobs). Keep it below the supervisor's
   * grace period (Kubernetes: terminationGracePeriodSeconds, 30 by default).
   */
  SHUTDOWN_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: 25 }),
  /** Mark cookies Secure (set behind HTTPS). */
  COOKIE_SECURE: Type.Boolean({ default: false }),
  /** Public base URL of the console, used in links sent by email. */
  PUBLIC_URL: Type.Optional(Url),
  /** MapLibre style URL; without it the map renders its layers on a plain background. */
  MAP_STYLE_URL: Type.Optional(Type.String()),
  /**
   * The first super admin, created on the first start of a database without any user (never again): a
   * one-time sign-in link is logged and, with SMTP, mailed to this address. `npm run admin:create` does
   * the same by hand.
   */
  INITIAL_ADMIN_EMAIL: Type.Optional(Type.String({ minLength: 3, maxLength: 255 })),
  /**
   * The worker apps (ingest, rules worker, notifier) serve /health/live, /health/ready and /metrics on
   * this port of their own; unset: none (0: a free port, logged).
   */
  HEALTH_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** /metrics from other than loopback addresses needs `Authorization: Bearer <token>` when set. */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /** Seed the demo companies, users and devices on first start. */
  DEMO_DATA: Type.Boolean({ default: true }),
  /**
   * Demo devices the platform simulates in-process (one uplink per device per minute over the embedded
   * MQTT broker, so the console is alive on first start). Unset: 10 in the embedded profile with demo
   * data, else 0 (the distributed profile has no embedded broker to publish through).
   */
  SIMULATE_DEVICES: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  /**
   * Let http actions and LoRaWAN network servers (ChirpStack API, TTS downlink queue) be loopback,
   * link-local and private addresses.
   */
  HTTP_ACTIONS_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  /**
   * Hours a LoRaWAN command may wait at its network server for a report (acknowledged or failed) before
   * it counts as failed and the company gets a system message. A class A device takes its command after
   * its next uplink and acknowledges it in the one after, so this must cover two reporting intervals.
   */
  DOWNLINK_ACK_TIMEOUT_HOURS: Type.Integer({ minimum: 1, maximum: 24 * 30, default: 24 }),
  /**
   * Days the device logs and the notification log keep their entries; the rules worker's timer deletes
   * older ones. 0 keeps them for good. Device data is not affected.
   */
  LOG_RETENTION_DAYS: Type.Integer({ minimum: 0, maximum: 3650, default: 90 }),
  /**
   * Days a deleted client is kept (it can be restored meanwhile) before the rules worker's timer purges
   * it with all its data (issue #27).
   */
  CLIENT_PURGE_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /**
   * Weather provider for GET /core/weather when the company has no fresh station nearby: the base URL of
   * Bright Sky (https://api.brightsky.dev, DWD data, no key) or of Open-Meteo (https://api.open-meteo.com).
   * Unset: own stations only.
   */
  WEATHER_PROVIDER_URL: Type.Optional(Url),
  WEATHER_PROVIDER: Type.Union([Type.Literal('brightsky'), Type.Literal('open-meteo')], {
    default: 'brightsky',
  }),
  /** Own weather stations count for a point within this many kilometres. */
  WEATHER_STATION_RADIUS_KM: Type.Number({ minimum: 0, maximum: 500, default: 10 }),
  /** Directory of the built console that the API serves; empty disables serving it. */
  CONSOLE_DIR: Type.Optional(Type.String()),
});

export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

const known = new Set(Object.keys(ConfigSchema.properties));

/** Reads, converts and validates configuration from an environment-like record. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(env)) {
    if (known.has(key) && value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, raw));
  const problems = Value.Errors(ConfigSchema, withDefaults).map((e) => {
    const key = e.instancePath.slice(1);
    const got = key ? (withDefaults as Record<string, unknown>)[key] : withDefaults;
    return `${key || '(root)'}: ${e.message} (got ${JSON.stringify(got)})`;
  });
  const config = withDefaults as Config;
  if (config.PROFILE === 'distributed' && !config.DATABASE_URL) {
    problems.push('DATABASE_URL: required in the distributed profile');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
