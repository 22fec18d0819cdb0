/** /core/company/api-keys: keys of the licensed external API (issue #27). */
import { API_KEY_SCOPES } from '@iot/domain';
import { type Static, Type } from 'typebox';
import { Nullable } from './common';

export const ApiKeyScopeSchema = Type.Union(
  [
    Type.Literal('devices:read'),
    Type.Literal('devices:write'),
    Type.Literal('commands:send'),
    Type.Literal('rules:manage'),
  ],
  { description: 'devices:read (devices and their data), devices:write, commands:send, rules:manage' },
);

// The literals above are API_KEY_SCOPES of @iot/domain; this line fails to compile when they drift.
const _sameScopes: readonly Static<typeof ApiKeyScopeSchema>[] = API_KEY_SCOPES;
void _sameScopes;

export const ApiKeyPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'the first characters of the key, to tell keys apart' }),
  scopes: Type.Array(ApiKeyScopeSchema),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  created_by: Nullable(Type.Integer()),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  request_count: Type.Integer(),
});

export const CreatedApiKeyPayload = Type.Object({
  ...ApiKeyPayload.properties,
  key: Type.String({ description: 'shown once; only its sha-256 is stored' }),
});

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scopes: Type.Array(ApiKeyScopeSchema, { minItems: 1, uniqueItems: true }),
    expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  },
  { additionalProperties: false },
);

export type ApiKey = Static<typeof ApiKeyPayload>;
export type CreatedApiKey = Static<typeof CreatedApiKeyPayload>;
export type CreateApiKeyInput = Static<typeof CreateApiKeyBody>;
