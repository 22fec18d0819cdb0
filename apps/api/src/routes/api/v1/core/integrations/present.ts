import type { IntegrationTokenRecord } from '@iot/db';

export function presentToken(t: IntegrationTokenRecord) {
  return {
    id: t.id,
    kind: t.kind,
    name: t.name,
    created_by: t.createdBy,
    created_at: t.createdAt.toISOString(),
    last_used_at: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
    revoked_at: t.revokedAt ? t.revokedAt.toISOString() : null,
  };
}
