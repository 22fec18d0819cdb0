/**
 * /api/v1/parking (issue #25; spec sections 3, 7): parking areas with the devices that feed them, the
 * free slots the rules worker keeps current, their history and the FIWARE NGSI-LD export.
 */
import { type Static, Type } from 'typebox';
import { Nullable } from './common';
import { RuleActionInput } from './rules';

/**
 * Nullable request fields as one JSON schema type list: the API's ajv coerces types, and with
 * anyOf [number, null] it would turn null into 0 (a cleared max parking time into an invalid 0).
 */
const OrNull = <T>(schema: { type: string } & Record<string, unknown>) =>
  Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });

const Bay = Type.Object(
  {
    device_id: Type.Integer({ minimum: 1 }),
    label: Type.Optional(OrNull<string>({ type: 'string', maxLength: 100 })),
  },
  { additionalProperties: false },
);

// Loose types where the domain answers with the spec's own code (40006 type, 40007 capacity, 40008 icon,
// 40009 max parking time, 40010 area size) rather than a schema's 400.
export const ParkingAreaBody = Type.Object(
  {
    name: Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 10_000 }),
    description: Type.Optional(OrNull<string>({ type: 'string', maxLength: 10_000 })),
    type: Type.Unsafe<string>({ type: 'string', maxLength: 20, description: 'FIX or AI' }),
    capacity: Type.Optional(OrNull<number>({ type: 'number' })),
    area_size: Type.Optional(OrNull<number>({ type: 'number', description: 'm²; AI areas' })),
    max_parking_time: Type.Optional(
      OrNull<number>({ type: 'number', description: 'minutes; empty: no limit' }),
    ),
    grace_period: Type.Optional(
      OrNull<number>({ type: 'number', description: 'minutes before an overstay' }),
    ),
    icon: Type.Optional(
      Type.Unsafe<string>({ type: 'string', maxLength: 20, description: 'PS, TP, PU or PG' }),
    ),
    latitude: Type.Optional(OrNull<number>({ type: 'number', minimum: -90, maximum: 90 })),
    longitude: Type.Optional(OrNull<number>({ type: 'number', minimum: -180, maximum: 180 })),
    geometry: Type.Optional(
      OrNull<Record<string, unknown>>({ type: 'object', description: 'GeoJSON Polygon of the area' }),
    ),
    valid_from: Type.Optional(OrNull<string>({ type: 'string', format: 'date' })),
    valid_to: Type.Optional(OrNull<string>({ type: 'string', format: 'date' })),
    alert_free_below: Type.Optional(
      OrNull<number>({
        type: 'integer',
        minimum: 0,
        description: 'alarm when fewer free slots; 1: when full',
      }),
    ),
    alert_cooldown_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_080 })),
    alarm_actions: Type.Optional(
      Type.Array(RuleActionInput, {
        maxItems: 20,
        description:
          "exactly the actions afterwards of the area's alarm rule, run for each overstay, free-slots and implausible-count alarm (channels as a device rule's, without remote_control; {value} is the alarm's text); absent keeps them",
      }),
    ),
    devices: Type.Optional(
      Type.Array(Bay, {
        maxItems: 10_000,
        description: "exactly the area's devices afterwards (FIX: one parking sensor per bay with its label)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ParkingAreaInput = Static<typeof ParkingAreaBody>;

export const ParkingBayPayload = Type.Object({
  device_id: Type.Integer(),
  device_name: Type.String(),
  label: Nullable(Type.String()),
  /**
   * FIX bays: occupied / free from the latest reading; unknown without one within 8 hours. AI counting
   * sensors: reporting (a count within 8 hours) or unknown.
   */
  status: Type.Union([
    Type.Literal('occupied'),
    Type.Literal('free'),
    Type.Literal('unknown'),
    Type.Literal('reporting'),
  ]),
  /** Since when the bay has its occupied/free value. */
  status_since: Nullable(Type.String({ format: 'date-time' })),
  reading_at: Nullable(Type.String({ format: 'date-time' })),
  reported_count: Nullable(Type.Integer()),
  overstay: Type.Boolean(),
});
export type ParkingBay = Static<typeof ParkingBayPayload>;

export const ParkingAreaPayload = Type.Object({
  id: Type.Integer(),
  uuid: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  type: Type.Union([Type.Literal('FIX'), Type.Literal('AI')]),
  capacity: Type.Integer(),
  area_size: Nullable(Type.Number()),
  max_parking_time: Nullable(Type.Integer()),
  grace_period: Type.Integer(),
  icon: Type.Union([Type.Literal('PS'), Type.Literal('TP'), Type.Literal('PU'), Type.Literal('PG')]),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  geometry: Nullable(Type.Record(Type.String(), Type.Unknown())),
  valid_from: Nullable(Type.String()),
  valid_to: Nullable(Type.String()),
  alert_free_below: Nullable(Type.Integer()),
  alert_cooldown_minutes: Type.Integer(),
  /** null: nothing known yet. */
  free_slots: Nullable(Type.Integer()),
  occupied_slots: Type.Integer(),
  unknown_slots: Type.Integer(),
  /** AI: the vehicles reported in sum, before clamping to [0, capacity]. */
  reported_count: Nullable(Type.Integer()),
  count_warning: Nullable(Type.Union([Type.Literal('above_capacity'), Type.Literal('negative')])),
  overstays: Type.Integer(),
  counts_updated_at: Nullable(Type.String({ format: 'date-time' })),
  last_reading_at: Nullable(Type.String({ format: 'date-time' })),
  device_ids: Type.Array(Type.Integer()),
  bays: Type.Array(ParkingBayPayload),
  /** The actions of the area's alarm rule (as a device rule's actions). */
  alarm_actions: Type.Array(
    Type.Object({
      id: Type.Integer(),
      channel: Type.String(),
      config: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type ParkingArea = Static<typeof ParkingAreaPayload>;

export const ParkingHistoryQuery = Type.Object(
  {
    range: Type.Optional(
      Type.Union([Type.Literal('24h'), Type.Literal('1w'), Type.Literal('1m'), Type.Literal('1y')], {
        description: 'the last day, week, month or year; hourly buckets, daily for a year',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ParkingHistoryPayload = Type.Object({
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  bucket_seconds: Type.Integer(),
  capacity: Type.Integer(),
  /** Time-weighted means per bucket; null before anything was known. */
  buckets: Type.Array(
    Type.Object({
      at: Type.String({ format: 'date-time' }),
      free: Nullable(Type.Number()),
      occupied: Nullable(Type.Number()),
      unknown: Nullable(Type.Number()),
      full_share: Nullable(Type.Number()),
    }),
  ),
  /** Stays that began in the range (FIX bays). */
  stays: Type.Integer(),
  /** Stays per bay per day. */
  turnover: Nullable(Type.Number()),
  avg_stay_minutes: Nullable(Type.Number()),
  longest_stay_minutes: Nullable(Type.Number()),
  /** 0..1: share of the range the area was full (of the time its free slots were known). */
  full_share: Nullable(Type.Number()),
});
export type ParkingHistory = Static<typeof ParkingHistoryPayload>;

export const NgsiLdEntitiesPayload = Type.Array(Type.Record(Type.String(), Type.Unknown()), {
  description: 'FIWARE OffStreetParking (first) and its ParkingSpots, NGSI-LD normalized',
});
