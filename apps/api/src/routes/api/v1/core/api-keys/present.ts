import type { ApiKeyRecord } from '@iot/db';
import type { ApiKeyScope } from '@iot/domain';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentApiKey(k: ApiKeyRecord) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes as ApiKeyScope[],
    expires_at: iso(k.expiresAt),
    created_by: k.createdBy,
    created_at: k.createdAt.toISOString(),
    revoked_at: iso(k.revokedAt),
    last_used_at: iso(k.lastUsedAt),
    request_count: k.requestCount,
  };
}
