/**
 * Water associations (NWA, spec sections 3, 4, 7; issue #26): `/nwa`. Volumes are m³, flows m³/h.
 */
import { type Static, Type } from 'typebox';

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

export const NwaRole = Type.Union(
  [Type.Literal('association'), Type.Literal('admin'), Type.Literal('member'), Type.Literal('super_admin')],
  {
    description:
      'the acting company towards the association: itself, an admin member, a member, the operator',
  },
);

export const NwaIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const NwaMemberParams = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  company_id: Type.Integer({ minimum: 1 }),
});
export const NwaDeviceParams = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  device_id: Type.Integer({ minimum: 1 }),
});

export const NwaSummaryPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  city: Type.Union([Type.String(), Type.Null()]),
  role: NwaRole,
  /** true for the association itself and its admin members (the console's is_admin). */
  is_admin: Type.Boolean(),
  member_count: Type.Integer(),
  /** Open membership requests; 0 for callers who do not manage members (the menu badge). */
  open_request_count: Type.Integer(),
  shared_device_count: Type.Integer(),
});
export type NwaSummary = Static<typeof NwaSummaryPayload>;

export const NwaSettingsPayload = Type.Object({
  max_flow_per_hour: Nullable(Type.Number()),
  max_volume_per_year: Nullable(Type.Number()),
  water_year_start_month: Type.Integer({ minimum: 1, maximum: 12 }),
  time_zone: Type.String(),
  members_see_shared_devices: Type.Boolean(),
  /** At 100 % of a member's yearly allowance its valves shared with control are closed (downlink). */
  close_valves_at_limit: Type.Boolean(),
});
export type NwaSettings = Static<typeof NwaSettingsPayload>;

export const NwaMemberPayload = Type.Object({
  company_id: Type.Integer(),
  name: Type.String(),
  city: Type.Union([Type.String(), Type.Null()]),
  is_admin: Type.Boolean(),
  joined_at: Type.String({ format: 'date-time' }),
  allowance_per_hour: Nullable(Type.Number()),
  allowance_per_year: Nullable(Type.Number()),
});
export type NwaMember = Static<typeof NwaMemberPayload>;

export const NwaMemberListPayload = Type.Array(NwaMemberPayload, {
  description: 'the members the caller sees afterwards (reloaded)',
});

export const NwaDetailsPayload = Type.Object({
  ...NwaSummaryPayload.properties,
  settings: NwaSettingsPayload,
  members: Type.Array(NwaMemberPayload),
});
export type NwaDetails = Static<typeof NwaDetailsPayload>;

const Allowance = Type.Object(
  {
    company_id: Type.Integer({ minimum: 1 }),
    allowance_per_hour: Nullable(Type.Number({ minimum: 0, maximum: 1e9 })),
    allowance_per_year: Nullable(Type.Number({ minimum: 0, maximum: 1e12 })),
  },
  { additionalProperties: false },
);

export const UpdateNwaBody = Type.Object(
  {
    max_flow_per_hour: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e9 }))),
    max_volume_per_year: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e12 }))),
    water_year_start_month: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
    time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    members_see_shared_devices: Type.Optional(Type.Boolean()),
    close_valves_at_limit: Type.Optional(Type.Boolean()),
    /** Per member: its share of the permit, from today on. */
    allowances: Type.Optional(Type.Array(Allowance, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
export type UpdateNwa = Static<typeof UpdateNwaBody>;

export const SetNwaAdminBody = Type.Object(
  { is_admin: Type.Optional(Type.Boolean({ description: 'default true: make admin' })) },
  { additionalProperties: false },
);

export const NwaRequestPayload = Type.Object({
  id: Type.Integer(),
  nwa_id: Type.Integer(),
  company_id: Type.Integer(),
  company_name: Type.String(),
  city: Type.Union([Type.String(), Type.Null()]),
  state: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('rejected')]),
  created_at: Type.String({ format: 'date-time' }),
});
export type NwaRequest = Static<typeof NwaRequestPayload>;
export const NwaRequestListPayload = Type.Array(NwaRequestPayload, {
  description: 'the open membership requests afterwards (reloaded)',
});

export const NwaDirectoryEntryPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  city: Type.Union([Type.String(), Type.Null()]),
  role: Type.Union([NwaRole, Type.Null()]),
  request_pending: Type.Boolean(),
});
export type NwaDirectoryEntry = Static<typeof NwaDirectoryEntryPayload>;

export const SharedDevicePayload = Type.Object({
  nwa_id: Type.Integer(),
  device_id: Type.Integer(),
  name: Type.String(),
  owner_company_id: Type.Integer(),
  owner_name: Type.String(),
  access: Type.Union([Type.Literal('read'), Type.Literal('control')]),
  data_field: Type.String(),
  unit: Type.Union([Type.Literal('m3'), Type.Literal('l')]),
  meter_factor: Type.Number(),
  counts_against_company_id: Type.Union([Type.Integer(), Type.Null()]),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  last_value: Nullable(Type.Number()),
  last_reading_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  shared_at: Type.String({ format: 'date-time' }),
});
export type SharedDevice = Static<typeof SharedDevicePayload>;
export const SharedDeviceListPayload = Type.Array(SharedDevicePayload);

export const ShareDeviceBody = Type.Object(
  {
    device_id: Type.Integer({ minimum: 1 }),
    access: Type.Optional(Type.Union([Type.Literal('read'), Type.Literal('control')])),
  },
  { additionalProperties: false },
);

export const UpdateSharedDeviceBody = Type.Object(
  {
    counts_against_company_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    unit: Type.Optional(Type.Union([Type.Literal('m3'), Type.Literal('l')])),
    meter_factor: Type.Optional(Type.Number({ minimum: 1e-9, maximum: 1e6, description: 'greater than 0' })),
    data_field: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.]+$' })),
  },
  { additionalProperties: false },
);

export const MemberUsagePayload = Type.Object({
  company_id: Type.Integer(),
  name: Type.String(),
  used: Type.Number(),
  allowance: Nullable(Type.Number()),
  percent: Nullable(Type.Number()),
  remaining: Nullable(Type.Number()),
  projected: Type.Number(),
  max_hourly: Type.Number(),
  hourly_cap: Nullable(Type.Number()),
  hourly_cap_exceeded: Type.Boolean(),
  last_reading_age_minutes: Nullable(Type.Number()),
  /** m³ per local day of the last 30 days, oldest first (sparkline). */
  daily: Type.Array(Type.Number()),
});
export type MemberUsage = Static<typeof MemberUsagePayload>;

export const NwaUsagePayload = Type.Object({
  nwa_id: Type.Integer(),
  year_start: Type.String({ format: 'date-time' }),
  year_end: Type.String({ format: 'date-time' }),
  time_zone: Type.String(),
  total_used: Type.Number(),
  max_volume_per_year: Nullable(Type.Number()),
  max_flow_per_hour: Nullable(Type.Number()),
  max_hourly: Type.Number(),
  members: Type.Array(MemberUsagePayload),
});
export type NwaUsage = Static<typeof NwaUsagePayload>;

export const MeterHistoryQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
});

export const MeterHistoryPayload = Type.Object({
  device_id: Type.Integer(),
  readings: Type.Array(Type.Object({ at: Type.String({ format: 'date-time' }), value: Type.Number() })),
  daily: Type.Array(Type.Object({ day: Type.String(), volume: Type.Number() })),
  counter_resets: Type.Integer(),
});
export type MeterHistory = Static<typeof MeterHistoryPayload>;
