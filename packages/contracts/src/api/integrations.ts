import { type Static, Type } from 'typebox';
import { Nullable } from './common';

/** The repository's INTEGRATION_TOKEN_KINDS (@iot/db): the route passes the kind on, so they cannot drift. */
export const INTEGRATION_TOKEN_KIND_NAMES = ['chirpstack', 'tts', 'http'] as const;

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
    kind: Type.Union(INTEGRATION_TOKEN_KIND_NAMES.map((k) => Type.Literal(k))),
    name: Type.String({ maxLength: 1000 }),
  },
  { additionalProperties: false },
);

export const NetworkServerBody = Type.Object(
  {
    kind: Type.Literal('chirpstack', { description: 'ChirpStack v4 (gRPC API)' }),
    api_url: Type.String({
      maxLength: 4096,
      description: "the network server's gRPC API: http://host:port (plaintext) or https://host:port (TLS)",
    }),
    api_token: Type.Optional(
      Type.String({
        maxLength: 8192,
        description: 'an API token of the network server; absent: keep the stored one',
      }),
    ),
  },
  { additionalProperties: false },
);

export const NetworkServerPayload = Type.Object({
  kind: Type.String(),
  api_url: Type.String(),
  api_token_set: Type.Boolean({ description: 'always true: the token itself is never shown' }),
  updated_by: Nullable(Type.Integer()),
  updated_at: Type.String({ format: 'date-time' }),
});

export type IntegrationToken = Static<typeof TokenPayload>;
export type CreatedIntegrationToken = Static<typeof CreatedTokenPayload>;
export type NetworkServer = Static<typeof NetworkServerPayload>;
