import type { Config } from '@iot/config';
import type { CompanyRecord, Db, UserRecord } from '@iot/db';
import type { DownlinkPublish, Mailer } from '@iot/delivery';
import type { Health } from '@iot/runtime';
import type { AfterAnswer } from './lib/after-answer';
import type { AnswerCache } from './lib/answer-cache';
import type { AuthCache } from './lib/auth-cache';
import type { ClosedBuckets } from './lib/closed-bucket-cache';
import type { LoginThrottle } from './lib/login-throttle';

/** Who is acting, resolved once per request from the session cookie. */
export interface AuthContext {
  user: UserRecord;
  /** The company every repository call acts for: the impersonated client while impersonating. */
  companyId: number;
  /** The user's own company. */
  realCompanyId: number;
  impersonated: boolean;
  roles: readonly string[];
  /** The acting company. */
  company: CompanyRecord;
  /** sha-256 of the session token (the sessions row id). */
  sessionId: string;
  csrfToken: string;
  /** Set when an external API key authenticated the request (no session then; issue #27). */
  apiKey?: { id: number; scopes: readonly string[] };
}

export interface SessionSettings {
  /** Sliding lifetime in seconds (spec section 9: session duration 7200). */
  lifetimeSeconds: number;
  /** Minimum seconds between two writes that slide the expiry. */
  touchIntervalSeconds: number;
  /** Absolute lifetime from sign-in (SESSION_MAX_AGE_HOURS): no use extends it. */
  maxAgeSeconds: number;
  /** Seconds a resolved session is kept in memory (SESSION_CACHE_SECONDS; 0: none). */
  cacheSeconds: number;
  /**
   * Milliseconds a company's device lists may lag the database's announced changes under a stream of them
   * (DEVICE_LIST_REFRESH_MS; plugins/answer-cache.ts). A lone change, and this process's own, show at once.
   */
  listRefreshMs: number;
}

export interface RateLimitSettings {
  /** Login attempts per client address per window (@fastify/rate-limit). */
  loginPerAddress: { max: number; windowMs: number };
  /**
   * Failed logins of one account from one address before each further attempt from there waits (1 s,
   * doubling per failure; firstDelayMs overrides the 1 s); windowMs is the longest wait and how long
   * failures are remembered.
   */
  loginPerAccountAndAddress: { max: number; windowMs: number; firstDelayMs?: number };
  /** Failed logins from one address across all accounts per window. */
  loginFailuresPerAddress: { max: number; windowMs: number };
  /** Password reset requests per client address per window. */
  forgotPerAddress: { max: number; windowMs: number };
  /** Reset mails one account gets per window, whichever addresses ask. */
  resetMailsPerAccount: { max: number; windowMs: number };
  /** Requests one external API key may make per window (issue #27). */
  apiKeyPerKey: { max: number; windowMs: number };
}

/** What the app plugins and routes share; decorated on the instance as `deps`. */
export interface AppDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  version: string;
  sessionSecret: string;
  session: SessionSettings;
  rateLimits: RateLimitSettings;
  loginThrottle: LoginThrottle;
  /** Resolved sessions in memory (session.cacheSeconds). */
  authCache: AuthCache;
  /** The alarm poll's answers in memory for session.cacheSeconds at most (plugins/answer-cache). */
  alarmCache: AnswerCache;
  /** The device list's answers (table and map) in memory, likewise, per company (plugins/answer-cache). */
  deviceListCache: AnswerCache;
  /**
   * The map lists that show no latest values (pins by state), likewise, but kept through latest values
   * that move no device and turn none on- or offline (plugins/answer-cache, services/list-devices).
   */
  deviceMapCache: AnswerCache;
  /**
   * The dashboards answers, per company, until a change to its dashboards or widgets is announced
   * (migration 0047) or made by this process (plugins/answer-cache).
   */
  dashboardsCache: AnswerCache;
  /** Closed chart buckets of rolled-up reads, per device (lib/closed-bucket-cache, plugins/answer-cache). */
  closedBuckets: ClosedBuckets;
  /** Work left for after the answer (reset mails); close waits for it. */
  afterAnswer: AfterAnswer;
  /** Lifetime of a password reset link. */
  resetTokenLifetimeSeconds: number;
  /** Where support requests are mailed. */
  supportEmail: string;
  /** Called after a device's identity, state or token changed (see BuildAppOptions.onDeviceChanged). */
  onDeviceChanged: (deviceId: number) => void;
  /** Called after a company was blocked, deleted or its limits or modules changed (BuildAppOptions). */
  onCompanyChanged: (companyId: number) => void;
  /** How POST /core/devices/{id}/downlink reaches the broker; undefined: downlinks fail with 95. */
  publishDownlink: () => Promise<DownlinkPublish | undefined>;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Readiness of this process (GET /health/ready); the API process drains it on SIGTERM. */
    health: Health;
  }
  interface FastifyRequest {
    /** Null when the request carries no valid session. */
    auth: AuthContext | null;
    /** Why a present session does not count (74 user without company, 75 company blocked or deleted). */
    authFailure: 'USER_WITHOUT_COMPANY' | 'COMPANY_BLOCKED' | null;
  }
  interface FastifyContextConfig {
    /** Check the CSRF token on this route even though its method is safe (state-changing GETs of the spec). */
    csrf?: boolean;
    /** The route answers without a session. */
    public?: boolean;
    /** The scope an external API key needs for this route; unset: keys are refused (plugins/api-keys). */
    apiKeyScope?: import('@iot/domain').ApiKeyScope;
  }
}
