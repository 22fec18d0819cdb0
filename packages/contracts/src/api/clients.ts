import { MODULES } from '@iot/domain';
import { type Static, Type } from 'typebox';
import { Nullable } from './common';
import { UpdateCompanyBody } from './company';

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

// Fastify's ajv coerces types: `type: null` would turn 0 into null, and an integer branch tried first
// would turn null into 0. `const: null` is never coerced, so it goes first.
const NullConst = Type.Unsafe<null>({ const: null });
const Limit = Type.Optional(Type.Union([NullConst, Type.Integer({ minimum: 0, maximum: 1_000_000 })]));

/** Limits per client (issue #27); null removes a limit, an omitted key keeps it. */
export const ClientLimitsBody = Type.Object(
  {
    max_devices: Limit,
    max_users: Limit,
    max_dashboards: Limit,
    max_rules_per_device: Limit,
    max_uplinks_per_minute: Limit,
    // Days device data is kept at most (issue #29); at least 31, like the company's own setting.
    max_data_retention_days: Type.Optional(
      Type.Union([NullConst, Type.Integer({ minimum: 31, maximum: 36500 })]),
    ),
  },
  { additionalProperties: false },
);

/** Each limit with the client's current use of it (null limit: none; null use: not counted here). */
export const ClientLimitsPayload = Type.Array(
  Type.Object({
    key: Type.Union([
      Type.Literal('max_devices'),
      Type.Literal('max_users'),
      Type.Literal('max_dashboards'),
      Type.Literal('max_rules_per_device'),
      Type.Literal('max_uplinks_per_minute'),
      Type.Literal('max_data_retention_days'),
    ]),
    limit: Nullable(Type.Integer()),
    used: Nullable(Type.Integer()),
  }),
);
export type ClientLimitUse = Static<typeof ClientLimitsPayload>[number];

export const UpdateClientBody = Type.Object(
  {
    blocked: Type.Optional(Type.Boolean()),
    modules: Type.Optional(
      Type.Array(Type.Union(MODULES.map((m) => Type.Literal(m))), { uniqueItems: true }),
    ),
    is_nwa: Type.Optional(Type.Boolean()),
    // The client's base data (spec section 3), edited by the super admin (issue #27).
    ...UpdateCompanyBody.properties,
    limits: Type.Optional(ClientLimitsBody),
  },
  { additionalProperties: false },
);

// Spelled out (not mapped from MODULES) so that Static<> keeps the literal types; the check below fails to
// compile when MODULES gains a module this list lacks.
const ModuleSchema = Type.Union([
  Type.Literal('map_view'),
  Type.Literal('parking'),
  Type.Literal('farming'),
  Type.Literal('water_association'),
  Type.Literal('external_api'),
  Type.Literal('paid_messaging'),
]);
const _allModules: readonly Static<typeof ModuleSchema>[] = MODULES;
void _allModules;

/** A new client (issue #27): base data, modules, and its first main user, who is invited by mail. */
export const CreateClientBody = Type.Object(
  {
    ...UpdateCompanyBody.properties,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    modules: Type.Optional(Type.Array(ModuleSchema, { uniqueItems: true })),
    is_nwa: Type.Optional(Type.Boolean()),
    main_user: Type.Object(
      {
        email: Type.String({ minLength: 3, maxLength: 254 }),
        name: Type.String({ minLength: 1, maxLength: 200 }),
        locale: Type.Optional(Type.Union([Type.Literal('de'), Type.Literal('en')])),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** One start or end of a super admin acting as the client (issue #27). */
export const ImpersonationRecordPayload = Type.Object({
  id: Type.Integer(),
  action: Type.Union([Type.Literal('start'), Type.Literal('end')]),
  user_id: Nullable(Type.Integer()),
  user_name: Nullable(Type.String()),
  user_email: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
});

export type CreateClientInput = Static<typeof CreateClientBody>;
export type ImpersonationRecord = Static<typeof ImpersonationRecordPayload>;

export type Client = Static<typeof ClientPayload>;

/** What purging the client removes (issue #27): shown before the delete is confirmed. */
export const ClientPurgePreviewPayload = Type.Object({
  /** Days after the delete until the purge (CLIENT_PURGE_DAYS); the client can be restored until then. */
  purge_after_days: Type.Integer(),
  /** When a deleted client is purged; null while it is not deleted. */
  purge_at: Nullable(Type.String({ format: 'date-time' })),
  users: Type.Integer(),
  devices: Type.Integer(),
  data_points: Type.Integer(),
  rules: Type.Integer(),
  alarms: Type.Integer(),
  dashboards: Type.Integer(),
  groups: Type.Integer(),
  api_keys: Type.Integer(),
});
export type ClientPurgePreview = Static<typeof ClientPurgePreviewPayload>;

/** A deleted client waiting for its purge (issue #27). */
export const DeletedClientPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  deleted_at: Type.String({ format: 'date-time' }),
  purge_at: Type.String({ format: 'date-time' }),
});
export type DeletedClient = Static<typeof DeletedClientPayload>;

/** Support access of the client (issue #27): 'consent' lets support in only while a grant runs. */
export const SupportAccessPayload = Type.Object({
  mode: Type.Union([Type.Literal('always'), Type.Literal('consent')]),
  /** Support may act as the client until then (consent mode); null: no grant running. */
  granted_until: Nullable(Type.String({ format: 'date-time' })),
  /** When support last asked for access; null: never. */
  requested_at: Nullable(Type.String({ format: 'date-time' })),
});
export type SupportAccess = Static<typeof SupportAccessPayload>;

export const UpdateSupportAccessBody = Type.Object(
  {
    mode: Type.Optional(Type.Union([Type.Literal('always'), Type.Literal('consent')])),
    /** Grant access for this many hours from now (1 to 168); 0 ends a running grant. */
    grant_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 168 })),
  },
  { additionalProperties: false },
);
