/**
 * The external API's key principal (issue #27). A request carrying `Authorization: Bearer <key>` or
 * `X-API-Key: <key>` is authenticated by the key alone: cookies are ignored, so CSRF does not apply (a
 * browser never attaches these headers on its own). The key acts for its company with its creator's
 * rights, narrowed to its scopes: only the routes of API_KEY_ROUTES accept a key, each with the one scope
 * it needs; every other route (users, company, keys, impersonation, client management) answers 90030.
 * Each key has its own rate limit (429 with Retry-After), never shared with the console's sessions.
 */
import { findCompany, findUserById, useApiKey } from '@iot/db';
import { type ApiKeyScope, hasModule } from '@iot/domain';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { apiError } from '../lib/errors';
import { sha256 } from '../lib/tokens';

/** The routes a key may call ("METHOD /path" as registered) and the scope each needs. */
export const API_KEY_ROUTES: Readonly<Record<string, ApiKeyScope>> = {
  'GET /api/v1/core/devices': 'devices:read',
  'GET /api/v1/core/devices/:id': 'devices:read',
  'GET /api/v1/core/devices/:id/logs': 'devices:read',
  'GET /api/v1/core/devices/:id/notifications': 'devices:read',
  'GET /api/v1/core/devices/:id/battery': 'devices:read',
  'GET /api/v1/core/devices/:id/mobile-data': 'devices:read',
  'GET /api/v1/core/devices/current': 'devices:read',
  'GET /api/v1/core/devices/positions': 'devices:read',
  'GET /api/v1/core/devices/alarms': 'devices:read',
  'GET /api/v1/core/data/:id': 'devices:read',
  'GET /api/v1/core/data/:id/current': 'devices:read',
  'PUT /api/v1/core/devices/:id': 'devices:write',
  'PUT /api/v1/core/devices/:id/metadata': 'devices:write',
  'POST /api/v1/core/devices/:id/downlink': 'commands:send',
  'GET /api/v1/core/devices/:id/downlinks': 'commands:send',
  'DELETE /api/v1/core/devices/:device_id/rules/:rule_id': 'rules:manage',
  'POST /api/v1/core/devices/virtual_data_fields': 'rules:manage',
  'GET /api/v1/core/devices/:id/virtual_data_fields': 'rules:manage',
  'POST /api/v1/core/devices/:id/virtual_data_fields': 'rules:manage',
  'PUT /api/v1/core/devices/:id/virtual_data_fields/:fieldId': 'rules:manage',
  'DELETE /api/v1/core/devices/:id/virtual_data_fields/:fieldId': 'rules:manage',
  'POST /api/v1/core/devices/sensor_checks': 'rules:manage',
  'GET /api/v1/core/devices/:id/sensor_checks': 'rules:manage',
  'POST /api/v1/core/devices/:id/sensor_checks': 'rules:manage',
  'PUT /api/v1/core/devices/:id/sensor_checks/:checkId': 'rules:manage',
  'DELETE /api/v1/core/devices/:id/sensor_checks/:checkId': 'rules:manage',
  'GET /api/v1/parking/areas/:id/ngsi-ld': 'devices:read',
};

const DOCS_PREFIX = '/api/v1/docs';

function routeKey(method: string, url: string): string {
  const path = url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url;
  return `${method} ${path}`;
}

/** The key a request presents, if any: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedApiKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const authorization = request.headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return bearer?.[1] ?? null;
}

/**
 * Resolves `request.auth` from a presented key: 90032 for an unknown, expired or revoked key (or one whose
 * creator is gone), 75 (via authFailure) for a blocked or deleted company, 27 when the company no longer
 * has the external API module.
 */
export async function resolveApiKeyAuth(request: FastifyRequest, presented: string): Promise<void> {
  const { db } = request.server.deps;
  const key = await useApiKey(db, sha256(presented));
  if (!key || key.createdBy === null) throw apiError('API_KEY_INVALID');
  const company = await findCompany(db, key.companyId);
  if (!company) throw apiError('API_KEY_INVALID');
  if (company.blocked || company.deletedAt) {
    request.authFailure = 'COMPANY_BLOCKED';
    return;
  }
  if (!hasModule(company.id, company.modules, 'external_api')) {
    throw apiError('MODULE_NOT_LICENSED', { module: 'external_api' });
  }
  const user = await findUserById(db, company.id, key.createdBy);
  if (!user) throw apiError('API_KEY_INVALID');
  request.log = request.log.child({ apiKeyId: key.id, userId: user.id, companyId: company.id });
  request.auth = {
    user,
    companyId: company.id,
    realCompanyId: company.id,
    impersonated: false,
    roles: user.roles,
    company,
    sessionId: '',
    csrfToken: '',
    apiKey: { id: key.id, scopes: key.scopes },
  };
}

/** 90030 on a route that takes no key, 90031 when the key lacks the route's scope. */
function checkKeyRoute(request: FastifyRequest): void {
  const apiKey = request.auth?.apiKey;
  if (!apiKey) return;
  const scope = request.routeOptions.config?.apiKeyScope;
  if (!scope) throw apiError('API_KEY_NOT_ALLOWED_HERE');
  if (!apiKey.scopes.includes(scope)) throw apiError('API_KEY_SCOPE_MISSING', { scope });
}

/** Marks a key route in the OpenAPI document: the key schemes next to the session, and its scope. */
function declareKeyRoute(routeOptions: RouteOptions, scope: ApiKeyScope): void {
  routeOptions.config = { ...routeOptions.config, apiKeyScope: scope };
  if (!routeOptions.schema) return;
  const schema = routeOptions.schema as Record<string, unknown>;
  schema.security = [{ session: [], csrf: [] }, { apiKeyBearer: [] }, { apiKeyHeader: [] }];
  schema['x-api-key-scopes'] = [scope];
  const summary = typeof schema.summary === 'string' ? schema.summary : '';
  schema.summary = `${summary} [API key scope: ${scope}]`.trim();
}

async function apiKeysPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (routeOptions) => {
    const methods = Array.isArray(routeOptions.method) ? routeOptions.method : [routeOptions.method];
    for (const method of methods) {
      const scope = API_KEY_ROUTES[routeKey(method, routeOptions.url ?? '')];
      if (scope) declareKeyRoute(routeOptions, scope);
    }
  });

  const { max, windowMs } = app.deps.rateLimits.apiKeyPerKey;
  const limit = app.rateLimit({
    max,
    timeWindow: windowMs,
    keyGenerator: (request) => `api-key:${request.auth?.apiKey?.id ?? 0}`,
    errorResponseBuilder: () => apiError('API_KEY_RATE_LIMITED'),
  });
  // After the session plugin's hook, which resolved the key. Only key requests are counted here: the
  // console's sessions have limits of their own and never share a key's allowance.
  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    // The OpenAPI document and its viewer are public pages, with or without a key.
    if (!request.auth?.apiKey || !url || url.startsWith(DOCS_PREFIX)) return;
    checkKeyRoute(request);
    await limit.call(app, request, reply);
  });
}

export default fp(apiKeysPlugin, {
  name: 'iot-api-keys',
  dependencies: ['iot-session', '@fastify/rate-limit'],
});
