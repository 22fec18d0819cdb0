/**
 * Scopes of an external API key (issue #27): what a key may do, narrower than its creator's rights.
 * Routes without a scope (users, company, keys, impersonation, client management) refuse every key.
 */
export const API_KEY_SCOPES = ['devices:read', 'devices:write', 'commands:send', 'rules:manage'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return typeof value === 'string' && (API_KEY_SCOPES as readonly string[]).includes(value);
}

/** Requests per minute one key may make, unless the platform is configured otherwise. */
export const API_KEY_REQUESTS_PER_MINUTE = 120;
