/**
 * The API as a Fastify instance (not listening): external plugins, then app plugins (errors, session,
 * CSRF), then the /api/v1 routes. The platform process and the tests call `buildApp`.
 */

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '@iot/config';
import { type Db, databaseChecks } from '@iot/db';
import {
  connectMqttDownlinks,
  createMailer,
  type DownlinkPublish,
  type Mailer,
  type MqttDownlinkClient,
} from '@iot/delivery';
import { API_KEY_REQUESTS_PER_MINUTE, SESSION_DURATION } from '@iot/domain';
import { answerHealth, Health, isHealthPath, metrics } from '@iot/runtime';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { AfterAnswer } from './lib/after-answer';
import { AnswerCache } from './lib/answer-cache';
import { AuthCache } from './lib/auth-cache';
import { createClosedBucketCache } from './lib/closed-bucket-cache';
import { LoginThrottle } from './lib/login-throttle';
import answerCache from './plugins/answer-cache';
import apiKeys from './plugins/api-keys';
import coalesceReads from './plugins/coalesce-reads';
import { consoleStaticOptions, isClientRoute } from './plugins/console-static';
import docs from './plugins/docs';
import errorHandler, { sendNotFound } from './plugins/error-handler';
import session from './plugins/session';
import apiV1 from './routes/api/v1/index';
import csrfRoutes from './routes/csrf';
import type { AppDeps, RateLimitSettings, SessionSettings } from './types';

export interface BuildAppOptions {
  config: Config;
  db: Db;
  /** Defaults to SMTP when config.SMTP_URL is set, else the outbox table. */
  mailer?: Mailer;
  /** Shown by GET /api/v1/core/version. */
  version: string;
  /** A pino logger or logger options; default: pino at config.LOG_LEVEL. */
  logger?: FastifyBaseLogger | FastifyServerOptions['logger'];
  /** Trust X-Forwarded-For (behind a reverse proxy), so rate limits see the client's address. */
  trustProxy?: boolean;
  session?: Partial<SessionSettings>;
  rateLimits?: Partial<RateLimitSettings>;
  /** Lifetime of a password reset link in seconds (default one hour). */
  resetTokenLifetimeSeconds?: number;
  /** Where support requests go (default: the MAIL_FROM address). */
  supportEmail?: string;
  /**
   * How console downlinks reach devices: the embedded platform passes its aedes broker's publish
   * (`aedesPublish(broker)` of @iot/delivery). Unset: the distributed profile connects to MQTT_URL on the
   * first downlink; the embedded profile has none (downlinks answer 95).
   */
  publishDownlink?: DownlinkPublish;
  /**
   * Told after a device's identity, state or token changed, so a cache of devices elsewhere in the process
   * (the embedded platform's ingest lookups) drops it at once instead of when its entry expires.
   */
  onDeviceChanged?: (deviceId: number) => void;
  /**
   * Readiness of the process (GET /health/ready): the embedded platform passes one with every part's
   * checks; by default the database and its migrations.
   */
  health?: Health;
  /** Told after a company was blocked, deleted or got other limits or modules (ingest's company cache). */
  onCompanyChanged?: (companyId: number) => void;
}

const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  // Enough for a shared office address, far too few for guessing.
  loginPerAddress: { max: 20, windowMs: 60_000 },
  // Five wrong passwords make that address wait at that account, from 1 s doubling up to a quarter of an
  // hour; the owner elsewhere is never locked out (issue #28).
  loginPerAccountAndAddress: { max: 5, windowMs: 15 * 60_000 },
  // Credential stuffing: one address failing at many accounts.
  loginFailuresPerAddress: { max: 50, windowMs: 15 * 60_000 },
  forgotPerAddress: { max: 5, windowMs: 15 * 60_000 },
  resetMailsPerAccount: { max: 3, windowMs: 60 * 60_000 },
  apiKeyPerKey: { max: API_KEY_REQUESTS_PER_MINUTE, windowMs: 60_000 },
};

/**
 * Responses (JSON, the console's index.html) compressed for browsers that accept it, brotli or gzip. Below
 * 1 kB compression saves less than it costs, so those go out as they are. Brotli at quality 2: an answer is
 * compressed for every request, and on an 80 kB device list quality 4 costs twice the time for 5 % fewer
 * bytes. In one synchronous call up to 1 MB: the plugin's default streams anything above 8 kB on two cores,
 * and a stream per answer cost more than the compression itself (the week read, compressed, went from 1,845
 * to 3,225 requests/s with both; tests/bench/README.md "The API's read path"). Answers kept in memory carry
 * their own compressed copies (lib/answer-cache.ts). The console's hashed files leave the build compressed
 * already (plugins/console-static.ts) and keep their own encoding. Requests are not decompressed: no
 * client sends compressed bodies.
 */
const COMPRESSION: FastifyCompressOptions = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
  syncThreshold: 1024 * 1024,
  brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2 } },
  globalDecompression: false,
};

async function sendHealth(request: FastifyRequest, reply: FastifyReply, health: Health) {
  const path = request.url.split('?')[0] ?? '/';
  const answer = await answerHealth(
    {
      path: isHealthPath(path) ? path : '/health/unknown',
      remoteAddress: request.socket.remoteAddress,
      authorization: request.headers.authorization,
    },
    health,
    request.server.deps.config.METRICS_TOKEN,
  );
  return reply.code(answer.status).type(answer.contentType).send(answer.body);
}

function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

export function buildApp(options: BuildAppOptions): FastifyInstance {
  const { config, db } = options;
  const loggerOption = options.logger ?? { level: config.LOG_LEVEL };
  const isLoggerInstance =
    typeof loggerOption === 'object' && loggerOption !== null && 'child' in loggerOption;
  const app = Fastify({
    ...(isLoggerInstance
      ? { loggerInstance: loggerOption as FastifyBaseLogger }
      : { logger: loggerOption as FastifyServerOptions['logger'] }),
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true },
    // Logos arrive as data URLs inside JSON.
    bodyLimit: 2 * 1024 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const rateLimits: RateLimitSettings = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  let mqttClient: Promise<MqttDownlinkClient> | undefined;
  const sessionSettings: SessionSettings = {
    lifetimeSeconds: SESSION_DURATION,
    touchIntervalSeconds: 60,
    maxAgeSeconds: config.SESSION_MAX_AGE_HOURS * 3600,
    cacheSeconds: config.SESSION_CACHE_SECONDS,
    listRefreshMs: config.DEVICE_LIST_REFRESH_MS,
    ...options.session,
  };
  const deps: AppDeps = {
    config,
    db,
    mailer: options.mailer ?? createMailer(config, db),
    version: options.version,
    // Without a configured secret (tests, first start) cookies are signed with a per-process secret;
    // main.ts keeps one in DATA_DIR so restarts do not invalidate pre-session cookies.
    sessionSecret: config.SESSION_SECRET ?? randomBytes(32).toString('base64url'),
    session: sessionSettings,
    authCache: new AuthCache(sessionSettings.cacheSeconds * 1000),
    alarmCache: new AnswerCache(sessionSettings.cacheSeconds * 1000),
    deviceListCache: new AnswerCache(sessionSettings.cacheSeconds * 1000),
    deviceMapCache: new AnswerCache(sessionSettings.cacheSeconds * 1000),
    dashboardsCache: new AnswerCache(sessionSettings.cacheSeconds * 1000),
    closedBuckets: createClosedBucketCache(sessionSettings.cacheSeconds),
    rateLimits,
    loginThrottle: new LoginThrottle({
      pair: rateLimits.loginPerAccountAndAddress,
      address: rateLimits.loginFailuresPerAddress,
    }),
    afterAnswer: new AfterAnswer(app.log),
    resetTokenLifetimeSeconds: options.resetTokenLifetimeSeconds ?? 3600,
    supportEmail: options.supportEmail ?? addressOf(config.MAIL_FROM),
    onDeviceChanged: options.onDeviceChanged ?? (() => {}),
    onCompanyChanged: options.onCompanyChanged ?? (() => {}),
    publishDownlink: async () => {
      if (options.publishDownlink) return options.publishDownlink;
      if (config.PROFILE !== 'distributed') return undefined;
      mqttClient ??= connectMqttDownlinks(config.MQTT_URL).catch((error: unknown) => {
        mqttClient = undefined;
        throw error;
      });
      return (await mqttClient).publish;
    },
  };
  app.decorate('deps', deps);
  const health = options.health ?? new Health().add(...databaseChecks(db));
  app.decorate('health', health);
  app.addHook('onClose', async () => {
    await deps.afterAnswer.settled();
    if (mqttClient) await (await mqttClient.catch(() => undefined))?.close();
  });

  // External plugins.
  app.register(compress, COMPRESSION);
  app.register(cookie, { secret: deps.sessionSecret });
  app.register(rateLimit, { global: false });
  app.register(docs, { version: options.version });

  // App plugins: one error shape, then session resolution and CSRF for every request.
  app.register(errorHandler);
  app.register(session);
  app.register(apiKeys);
  app.register(coalesceReads);
  app.register(answerCache);

  // Health, readiness and metrics (issue #29): no session, JSON (or Prometheus text), never the console.
  app.get('/health', { logLevel: 'warn' }, (request, reply) => sendHealth(request, reply, health));
  app.get('/health/*', { logLevel: 'warn' }, (request, reply) => sendHealth(request, reply, health));
  app.get('/metrics', { logLevel: 'warn' }, (request, reply) => sendHealth(request, reply, health));
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequestSeconds.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: reply.statusCode },
      reply.elapsedTime / 1000,
    );
  });

  // Routes.
  app.register(csrfRoutes);
  app.register(apiV1, { prefix: '/api/v1' });

  const consoleDir = config.CONSOLE_DIR ? resolve(config.CONSOLE_DIR) : null;
  if (consoleDir) app.register(fastifyStatic, consoleStaticOptions(consoleDir));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // SPA: a GET for a client-side route gets index.html; the console routes it. API paths and missing
    // build files (an old chunk after a deploy) keep the JSON 404, so a script tag never receives HTML.
    if (
      consoleDir &&
      isClientRoute(path) &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      // Checked per request: while a build rewrites the folder, sendFile of a missing index.html would
      // end in a second not-found inside this handler (Fastify's "NotFound inside a 404 handler").
      existsSync(join(consoleDir, 'index.html'))
    ) {
      return reply.type('text/html').sendFile('index.html');
    }
    return sendNotFound(request, reply);
  });

  return app;
}
