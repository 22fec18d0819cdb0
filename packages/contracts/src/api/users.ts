import { ROLES } from '@iot/domain';
import { type Static, Type } from 'typebox';
import { Nullable } from './common';

export const UserPayload = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  locale: Type.String(),
  roles: Type.Array(Type.String()),
  is_admin: Type.Boolean(),
  is_mainuser: Type.Boolean(),
  eula_accepted: Type.Boolean(),
  require_password_reset: Type.Boolean(),
  phone: Nullable(Type.String()),
  company_id: Nullable(Type.Integer()),
  last_login: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
});

const Role = Type.Union(ROLES.map((r) => Type.Literal(r)));

const Locale = Type.String({ minLength: 2, maxLength: 10, description: 'interface language, e.g. de or en' });

export const CreateUserBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    name: Type.String({ maxLength: 200 }),
    locale: Type.Optional(Locale),
    roles: Type.Optional(Type.Array(Role, { uniqueItems: true })),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
    password: Type.Optional(
      Type.String({ maxLength: 200, description: 'without it the user gets a reset link' }),
    ),
    password_confirmation: Type.Optional(Type.String({ maxLength: 200 })),
    require_password_reset: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateUserBody = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    locale: Type.Optional(Locale),
    roles: Type.Optional(Type.Array(Role, { uniqueItems: true })),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
    password: Type.Optional(Type.String({ maxLength: 200 })),
    password_confirmation: Type.Optional(Type.String({ maxLength: 200 })),
    require_password_reset: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SetAdminBody = Type.Object({ admin: Type.Boolean() }, { additionalProperties: false });

/** The spec gives the body only as "boolean": a bare JSON boolean, an object with the flag, or nothing. */
export const AcceptEulaBody = Type.Union([
  Type.Boolean(),
  Type.Object({ accepted: Type.Optional(Type.Boolean()), eula_accepted: Type.Optional(Type.Boolean()) }),
  Type.Null(),
]);

export type User = Static<typeof UserPayload>;
