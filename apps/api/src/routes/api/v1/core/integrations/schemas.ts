import type { IntegrationTokenRecord } from '@iot/db/repositories/integration-tokens';
import { INTEGRATION_TOKEN_KINDS } from '@iot/db/repositories/integration-tokens';
import { Type } from 'typebox';
import { Nullable } from '../../../../../lib/schemas';

export const TokenPayload = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  name: Type.String(),
  created_by: Nullable(Type.Integer()),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
});

export const CreatedTokenPayload = Type.Object({
  ...TokenPayload.properties,
  token: Type.String({ description: 'shown once; only its sha-256 is stored' }),
});

export const CreateTokenBody = Type.Object(
  {
    kind: Type.Union(INTEGRATION_TOKEN_KINDS.map((k) => Type.Literal(k))),
    name: Type.String({ maxLength: 1000 }),
  },
  { additionalProperties: false },
);

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
