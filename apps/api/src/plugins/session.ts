/**
 * Cookie session and CSRF protection (double submit).
 *
 * - Session: the browser holds a random token in the HttpOnly cookie `iot_session`; the `sessions` row is
 *   keyed by its sha-256 hash. Lifetime slides: each use extends it to `lifetimeSeconds` after the use,
 *   but never past `maxAgeSeconds` after sign-in (issue #28). The id changes at sign-in and whenever
 *   impersonation starts or ends (rotateSessionCookie), so an id known before does not carry over.
 * - CSRF: `XSRF-TOKEN` is a readable cookie; every mutating call must echo it in `X-XSRF-TOKEN`.
 *   With a session the expected value is the session's own csrf token (bound to the session row).
 *   Before login it is HMAC(secret, nonce) of a random nonce held in the signed HttpOnly cookie
 *   `iot_presession`, so a token planted without that cookie does not pass.
 */

import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Queryable, Unlisten } from '@iot/db';
import {
  deleteExpiredSessions,
  deleteSession,
  findCompany,
  findLiveSession,
  findUserById,
  recordAuditEvent,
  rotateSessionId,
  setSessionImpersonation,
  touchSession,
} from '@iot/db';
import { SIGNED_IN_COOKIE } from '@iot/domain';
import { isHealthPath } from '@iot/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_CHANGED_CHANNEL, type CachedAuth } from '../lib/auth-cache';
import { apiError } from '../lib/errors';
import { hmac, randomToken, safeEqual, sha256 } from '../lib/tokens';
import { supportMayAct } from '../services/support-access';
import type { AuthContext } from '../types';
import { presentedApiKey, resolveApiKeyAuth } from './api-keys';

export const SESSION_COOKIE = 'iot_session';
export const PRESESSION_COOKIE = 'iot_presession';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SWEEP_INTERVAL_MS = 10 * 60_000;

function baseCookie(secure: boolean): CookieSerializeOptions {
  return { path: '/', sameSite: 'lax', secure };
}

function presessionToken(secret: string, nonce: string): string {
  return hmac(secret, `xsrf:${nonce}`);
}

/** The pre-login CSRF token of this request's signed pre-session cookie, if it carries a valid one. */
function expectedPresessionToken(request: FastifyRequest, secret: string): string | null {
  const raw = request.cookies[PRESESSION_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  return presessionToken(secret, unsigned.value);
}

/** Sets the readable XSRF-TOKEN cookie: the session's token, or a fresh pre-session pair. */
export function issueCsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  const { config, sessionSecret } = request.server.deps;
  if (request.auth) {
    reply.setCookie(XSRF_COOKIE, request.auth.csrfToken, baseCookie(config.COOKIE_SECURE));
    return;
  }
  let nonce: string | null = null;
  const raw = request.cookies[PRESESSION_COOKIE];
  if (raw) {
    const unsigned = request.unsignCookie(raw);
    if (unsigned.valid && unsigned.value) nonce = unsigned.value;
  }
  if (!nonce) {
    nonce = randomToken();
    reply.setCookie(PRESESSION_COOKIE, nonce, {
      ...baseCookie(config.COOKIE_SECURE),
      httpOnly: true,
      signed: true,
    });
  }
  reply.setCookie(XSRF_COOKIE, presessionToken(sessionSecret, nonce), baseCookie(config.COOKIE_SECURE));
}

/** After login: the new session's cookie and its csrf token; the pre-session cookie is spent. */
export function setSessionCookies(reply: FastifyReply, token: string, csrfToken: string): void {
  const { config } = reply.server.deps;
  reply.setCookie(SESSION_COOKIE, token, { ...baseCookie(config.COOKIE_SECURE), httpOnly: true });
  reply.setCookie(SIGNED_IN_COOKIE, '1', baseCookie(config.COOKIE_SECURE));
  reply.setCookie(XSRF_COOKIE, csrfToken, baseCookie(config.COOKIE_SECURE));
  reply.clearCookie(PRESESSION_COOKIE, { path: '/' });
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
  reply.clearCookie(XSRF_COOKIE, { path: '/' });
}

// The reply of each request's session, for a rotation during the request to set the new cookies.
const replies = new WeakMap<AuthContext, FastifyReply>();

/**
 * Gives the request's session a new id and CSRF token (same user, impersonation, sign-in time and
 * expiry) and sends them as cookies with the answer; the old cookie stops working. Call after the
 * session's privileges changed, in the transaction that changed them.
 */
export async function rotateSessionCookie(q: Queryable, auth: AuthContext): Promise<void> {
  const token = randomToken();
  const id = sha256(token);
  const csrfToken = randomToken();
  if (!(await rotateSessionId(q, auth.sessionId, id, csrfToken))) return;
  auth.sessionId = id;
  auth.csrfToken = csrfToken;
  const reply = replies.get(auth);
  if (reply) setSessionCookies(reply, token, csrfToken);
}

/** Sets `request.auth` for this request from a resolved session (cached or just read). */
function authenticate(request: FastifyRequest, reply: FastifyReply, id: string, cached: CachedAuth): void {
  const { user, companyId, realCompanyId } = cached;
  // Every later log line of this request says who acted for which company.
  request.log = request.log.child({
    userId: user.id,
    companyId,
    ...(companyId !== realCompanyId ? { realCompanyId } : {}),
  });
  request.auth = {
    user,
    companyId,
    realCompanyId,
    impersonated: companyId !== realCompanyId,
    roles: user.roles,
    company: cached.company,
    sessionId: id,
    csrfToken: cached.csrfToken,
  };
  replies.set(request.auth, reply);
}

/** A cached session still usable as it was: an impersonation whose consent ran out is looked up again. */
function stillValid(cached: CachedAuth): boolean {
  return cached.companyId === cached.realCompanyId || supportMayAct(cached.company);
}

/** Resolves `request.auth` from the session cookie (the one place that does). */
async function resolveAuth(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  request.auth = null;
  request.authFailure = null;
  // Health and metrics need no session, and their Bearer token is METRICS_TOKEN, not an API key.
  if (isHealthPath(request.routeOptions.url?.replace('/*', '/') ?? '')) return;
  // A request with an API key is the key's alone: its cookies do not count (issue #27).
  const apiKey = presentedApiKey(request);
  if (apiKey) return resolveApiKeyAuth(request, apiKey);
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return;
  const id = sha256(token);
  const { authCache } = request.server.deps;
  const cached = authCache.get(id);
  if (cached && stillValid(cached)) return authenticate(request, reply, id, cached);
  const mark = authCache.mark();
  const resolved = await lookUpSession(request, reply, id);
  if (!resolved) return;
  authCache.set(id, resolved, mark);
  authenticate(request, reply, id, resolved);
}

/** The session's state from the database; null when the request is not signed in (reason set). */
async function lookUpSession(
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
): Promise<CachedAuth | null> {
  const { db, session: settings } = request.server.deps;
  const session = await findLiveSession(db, id);
  if (!session) {
    // An ended session: the console's next start asks for no user.
    reply.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
    return null;
  }
  const maxAgeEnd = session.createdAt.getTime() + settings.maxAgeSeconds * 1000;
  if (session.userDeleted || maxAgeEnd <= Date.now()) {
    await deleteSession(db, id);
    return null;
  }
  if (session.userCompanyId === null) {
    request.authFailure = 'USER_WITHOUT_COMPANY';
    return null;
  }
  if (session.companyBlocked || session.companyDeleted) {
    request.authFailure = 'COMPANY_BLOCKED';
    return null;
  }
  const realCompanyId = session.userCompanyId;
  let companyId = session.impersonatedCompanyId ?? realCompanyId;
  let company = await findCompany(db, companyId);
  if (companyId !== realCompanyId && (!company || company.deletedAt || !supportMayAct(company))) {
    // The impersonated client was deleted meanwhile, or its consent to support access ran out (issue
    // #27): fall back to acting as oneself.
    await setSessionImpersonation(db, id, null);
    if (company && !company.deletedAt)
      await recordAuditEvent(db, {
        companyId,
        userId: session.userId,
        action: 'impersonation.end',
        details: { real_company_id: realCompanyId, reason: 'consent_expired', ip: request.ip },
      });
    companyId = realCompanyId;
    company = await findCompany(db, companyId);
  }
  const user = await findUserById(db, realCompanyId, session.userId);
  if (!user || !company) return null;
  // The expiry slides at most once per touch interval: a recent use already moved it.
  let idleEnd = session.expiresAt.getTime();
  if (Date.now() - session.lastSeenAt.getTime() >= settings.touchIntervalSeconds * 1000) {
    await touchSession(db, id, settings.lifetimeSeconds, settings.touchIntervalSeconds);
    idleEnd = Date.now() + settings.lifetimeSeconds * 1000;
  }
  const endsAt = Math.min(idleEnd, maxAgeEnd);
  return { user, companyId, realCompanyId, company, csrfToken: session.csrfToken, endsAt };
}

function checkCsrf(request: FastifyRequest): void {
  // Keys are sent as headers a browser never adds by itself, so a forged cross-site request has none.
  if (request.auth?.apiKey) return;
  const mustCheck = MUTATING.has(request.method) || request.routeOptions.config?.csrf === true;
  if (!mustCheck) return;
  const header = request.headers[XSRF_HEADER];
  const sent = typeof header === 'string' ? header : '';
  const expected = request.auth
    ? request.auth.csrfToken
    : expectedPresessionToken(request, request.server.deps.sessionSecret);
  if (!sent || !expected || !safeEqual(sent, expected)) throw apiError('INVALID_CSRF_TOKEN');
}

async function sessionPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('auth', null);
  app.decorateRequest('authFailure', null);
  app.addHook('onRequest', async (request, reply) => {
    await resolveAuth(request, reply);
    checkCsrf(request);
  });

  const { db, authCache } = app.deps;
  const unlisten: Unlisten[] = [];
  if (app.deps.session.cacheSeconds > 0) {
    // Changes through the API reach the cache before their answer does (lib/auth-cache.ts).
    app.addHook('onSend', async (request, _reply, payload) => {
      if (!MUTATING.has(request.method)) return payload;
      authCache.clear();
      if (db.kind === 'postgres')
        await db
          .query('SELECT pg_notify($1, $2)', [AUTH_CHANGED_CHANNEL, authCache.id])
          .catch((err) => request.log.warn({ err }, 'announcing a change to other API processes failed'));
      return payload;
    });
    app.addHook('onReady', async () => {
      if (!db.listen) return;
      const clear = () => authCache.clear();
      unlisten.push(await db.listen('iot_company_changed', clear));
      if (db.kind === 'postgres')
        unlisten.push(
          await db.listen(
            AUTH_CHANGED_CHANNEL,
            // This process cleared its own before announcing.
            (from) => from !== authCache.id && authCache.clear(),
            () => authCache.resume(),
            () => authCache.suspend(),
          ),
        );
    });
  }

  // Expired sessions are already refused on lookup; this only keeps the table small.
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    sweeper = setInterval(() => {
      deleteExpiredSessions(db).catch((err) => app.log.warn({ err }, 'expired session sweep failed'));
    }, SWEEP_INTERVAL_MS);
    sweeper.unref();
  });
  app.addHook('onClose', async () => {
    if (sweeper) clearInterval(sweeper);
    await Promise.all(unlisten.map((stop) => stop()));
  });
}

export default fp(sessionPlugin, { name: 'iot-session', dependencies: ['@fastify/cookie'] });
