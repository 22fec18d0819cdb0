import { MODULES } from '@iot/domain';
import { type Static, Type } from 'typebox';
import { Nullable } from './common';

export const ClientPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  city: Nullable(Type.String()),
  email: Nullable(Type.String()),
  customer_number: Nullable(Type.String()),
  modules: Type.Array(Type.String()),
  is_nwa: Type.Boolean(),
  blocked: Type.Boolean(),
  user_count: Type.Integer(),
  device_count: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
});

export const UpdateClientBody = Type.Object(
  {
    blocked: Type.Optional(Type.Boolean()),
    modules: Type.Optional(
      Type.Array(Type.Union(MODULES.map((m) => Type.Literal(m))), { uniqueItems: true }),
    ),
    is_nwa: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export type Client = Static<typeof ClientPayload>;
