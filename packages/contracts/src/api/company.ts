import { type Static, Type } from 'typebox';
import { Nullable } from './common';

const Text = (maxLength: number) => Nullable(Type.String({ maxLength }));
// Fastify's ajv coerces types: an integer branch tried first would turn null into 0; `const: null` is never
// coerced, so it goes first (as in clients.ts).
const RetentionDays = Type.Optional(
  Type.Union([Type.Unsafe<null>({ const: null }), Type.Integer({ minimum: 31, maximum: 36500 })]),
);

export const CompanyPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  name2: Nullable(Type.String()),
  street: Nullable(Type.String()),
  street_number: Nullable(Type.String()),
  zip: Nullable(Type.String()),
  city: Nullable(Type.String()),
  district_id: Nullable(Type.Integer()),
  state_id: Nullable(Type.Integer()),
  country_id: Nullable(Type.Integer()),
  country: Nullable(Type.String({ description: 'ISO alpha-2 code: AT, CH, DE, FR' })),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  customer_number: Nullable(Type.String()),
  logo: Nullable(Type.String()),
  modules: Type.Array(Type.String(), { description: 'licensed modules; the super admin has all' }),
  is_nwa: Type.Boolean(),
  blocked: Type.Boolean(),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  timezone: Type.String(),
  data_retention_days: Type.Optional(
    Nullable(Type.Integer({ description: 'days raw device data is kept (issue #29); null: for ever' })),
  ),
  rollup_retention_days: Type.Optional(
    Nullable(
      Type.Integer({ description: 'days the hourly and coarser chart buckets are kept; null: for ever' }),
    ),
  ),
  data_retention_cap_days: Type.Optional(
    Nullable(Type.Integer({ description: "the super admin's cap on data_retention_days; null: none" })),
  ),
});

/** Base data of spec section 3 a company edits itself; omitted fields stay as they are. */
export const UpdateCompanyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    name2: Type.Optional(Text(200)),
    street: Type.Optional(Text(200)),
    street_number: Type.Optional(Text(20)),
    zip: Type.Optional(Text(20)),
    city: Type.Optional(Text(200)),
    district_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    state_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    country_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    phone: Type.Optional(Text(50)),
    email: Type.Optional(Text(254)),
    customer_number: Type.Optional(Text(50)),
    logo: Type.Optional(Text(100_000)),
    latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
    longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
    // Retention (issue #29); at least 31 days: the widest chart bucket must close before its raw rows go.
    data_retention_days: RetentionDays,
    rollup_retention_days: RetentionDays,
  },
  { additionalProperties: false },
);

export type Company = Static<typeof CompanyPayload>;
