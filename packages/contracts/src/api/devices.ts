import { BATTERY_BUCKETS, DEVICE_STATES, DEVICE_TARGET_SERVERS } from '@iot/domain';
import { type Static, Type } from 'typebox';
import { Nullable } from './common';
import { SeriesPayload } from './device-data';
import { RuleInput, RulePayload } from './rules';

/**
 * Nullable fields as JSON type lists, not anyOf. In requests: Fastify's Ajv coerces types, and inside anyOf
 * it would turn a null into 0 for the number branch ("clear the latitude" becoming the equator). In
 * responses: fast-json-stringify checks every anyOf branch per value, which for 10,000 devices with forty
 * fields each costs more than the query; a type list is a plain type switch.
 */
const NullableOf = <T>(type: string, extra: Record<string, unknown> = {}) =>
  Type.Unsafe<T | null>({ type: [type, 'null'], ...extra });

const NullString = (extra: Record<string, unknown> = {}) => NullableOf<string>('string', extra);

const NullNumber = () => NullableOf<number>('number');

const NullInteger = () => NullableOf<number>('integer');

/**
 * The list's sort columns. @iot/db's DEVICE_SORT_COLUMNS is the repository's own copy: the API passes the
 * parsed query to the repository, so a column missing there fails the API's typecheck.
 */
export const DEVICE_LIST_SORTS = [
  'id',
  'name',
  'state',
  'device_type',
  'serial_number',
  'last_online_at',
  'battery_level',
  'signal_strength',
  'group',
  'location',
  'created_at',
] as const;

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

const Json = Type.Record(Type.String(), Type.Unknown());

/** How a command leaves the platform. */
export type DownlinkVia = 'mqtt' | 'tts' | 'chirpstack';

/** A metadata entry as PUT /core/devices/{id}/metadata stores it. */
export interface MetadataEntry {
  data_field: string;
  label: string;
  sort: number;
}

/**
 * Open JSON objects with the keys the console reads typed: the same JSON schema as Json (so the
 * serializer passes every key through), a narrower static type.
 */
const OpenJson = <T extends object>() => Type.Unsafe<T & Record<string, unknown>>(Json);
const DeviceMetadataJson = OpenJson<{ data_fields?: MetadataEntry[] }>();
const DataFieldsJson = OpenJson<{ data_fields?: unknown[] }>();

export const DeviceListQuery = Type.Object({
  search: Type.Optional(
    Type.String({ maxLength: 200, description: 'substring of name, serial number, uuid, dev_eui, location' }),
  ),
  state: Type.Optional(literals(DEVICE_STATES)),
  group_id: Type.Optional(Type.Integer({ minimum: 1 })),
  device_type: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(literals(['online', 'offline'])),
  stale: Type.Optional(Type.Boolean({ description: 'true: last heard more than 8 hours ago' })),
  battery: Type.Optional(literals(BATTERY_BUCKETS)),
  field_id: Type.Optional(Type.Integer({ minimum: 1 })),
  parking_area_id: Type.Optional(Type.Integer({ minimum: 1 })),
  sort: Type.Optional(literals(DEVICE_LIST_SORTS)),
  order: Type.Optional(literals(['asc', 'desc'])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  ids: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,18}(,[0-9]{1,18}){0,999}$',
      description: 'opt-in: only these devices, comma-separated ids (up to 1000)',
    }),
  ),
  view: Type.Optional(
    Type.Literal('map', {
      description: 'opt-in: map: id, name, state, is_active, latitude, longitude and data (data_fields only)',
    }),
  ),
  data_fields: Type.Optional(
    Type.String({
      maxLength: 2000,
      description: 'with view=map: comma-separated fields whose latest values come in data (default none)',
    }),
  ),
});

const GroupRef = Type.Unsafe<{ id: number; name: string } | null>({
  type: ['object', 'null'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
  required: ['id', 'name'],
});

const listProperties = {
  id: Type.Integer(),
  uuid: Type.String(),
  name: Type.String(),
  description: NullString(),
  comment: NullString(),
  device_type: NullString(),
  driver_id: NullString(),
  serial_number: NullString(),
  dev_eui: NullString(),
  state: Type.String(),
  is_active: Type.Boolean(),
  external_accessible: Type.Boolean(),
  target_server: NullString(),
  battery_level: NullNumber(),
  battery_voltage: NullNumber(),
  mains_powered: Type.Boolean(),
  last_online_at: NullString({ format: 'date-time' }),
  signal_strength: NullInteger(),
  rssi: NullInteger(),
  snr: NullNumber(),
  group: GroupRef,
  group_id: NullInteger(),
  location: NullString(),
  latitude: NullNumber(),
  longitude: NullNumber(),
  mobile_data_volume: NullNumber(),
  sensor_type: NullInteger(),
  parking_area_id: NullInteger(),
  field_id: NullInteger(),
  metadata: DeviceMetadataJson,
  data: Type.Record(Type.String(), Type.Unknown(), {
    description: 'latest value per field (device_current)',
  }),
  field_times: Type.Record(Type.String(), Type.String()),
  data_updated_at: NullString({ format: 'date-time' }),
  relations: Type.Object({ company_id: Type.Integer() }),
};

export const DeviceListItem = Type.Object(listProperties);

/**
 * The answer of `view=map`: what a map draws, as columns (one array per attribute, index i is one device)
 * rather than one object per device: for 10,000 devices a quarter of the bytes of the object form (273 kB
 * against 1.1 MB), so less to send and to parse. `state` holds indexes into `states`.
 */
export const DeviceMapColumns = Type.Object({
  count: Type.Integer({ description: 'number of devices (the length of every column)' }),
  id: Type.Array(Type.Integer()),
  states: Type.Array(Type.String(), { description: 'the state names that `state` points into' }),
  state: Type.Array(Type.Integer(), { description: 'index into states' }),
  is_active: Type.Array(Type.Integer({ minimum: 0, maximum: 1 }), { description: '1 active, 0 not' }),
  latitude: Type.Array(NullNumber()),
  longitude: Type.Array(NullNumber()),
  data: Type.Record(Type.String(), Type.Array(Type.Unknown()), {
    description: 'per asked data field, the latest value of each device (null without one)',
  }),
});

export const DevicePayload = Type.Object({
  ...listProperties,
  device_details: DataFieldsJson,
  device_info: DataFieldsJson,
  codec_id: Nullable(Type.Integer()),
  rules_count: Type.Integer(),
  rules: Type.Optional(Type.Array(RulePayload, { description: 'the rules with their actions' })),
  virtual: Type.Optional(
    Type.Object(
      {
        fields: Type.Array(Type.Object({ key: Type.String(), formula: Type.String() })),
        inputs: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
      },
      { description: 'a virtual device: its formulas and the devices they read' },
    ),
  ),
  credentials: Type.Optional(
    Type.Object(
      { is_set: Type.Boolean(), rotate: Type.String({ description: 'call that issues a new token' }) },
      { description: 'ROLE_ADMIN and ROLE_MAINUSER only' },
    ),
  ),
  integration: Type.Optional(
    Type.Object(
      {
        dev_eui: Nullable(Type.String()),
        serial_number: Nullable(Type.String()),
        uuid: Type.String(),
        mqtt_topic: Nullable(Type.String({ description: 'devices/<serial>/up' })),
        active_integration_tokens: Type.Integer(),
        tokens: Type.String({ description: 'call that manages the webhook tokens' }),
        downlink_via: Type.Unsafe<DownlinkVia | null>(
          Nullable(
            Type.String({
              description:
                'how a command leaves: mqtt, tts or chirpstack; null: a LoRaWAN device without a downlink route (93)',
            }),
          ),
        ),
      },
      { description: 'ROLE_ADMIN and ROLE_MAINUSER only' },
    ),
  ),
});

const Text = (maxLength: number) => NullableOf<string>('string', { maxLength });

export const UpdateDeviceBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    description: Type.Optional(Text(4000)),
    comment: Type.Optional(Text(4000)),
    location: Type.Optional(Text(1000)),
    latitude: Type.Optional(NullableOf<number>('number')),
    longitude: Type.Optional(NullableOf<number>('number')),
    group_id: Type.Optional(NullableOf<number>('integer', { minimum: 1 })),
    target_server: Type.Optional(
      Type.Unsafe<(typeof DEVICE_TARGET_SERVERS)[number] | null>({ enum: [...DEVICE_TARGET_SERVERS, null] }),
    ),
    external_accessible: Type.Optional(Type.Boolean()),
    is_active: Type.Optional(Type.Boolean()),
    driver_id: Type.Optional(Text(200)),
    codec_id: Type.Optional(NullableOf<number>('integer', { minimum: 1 })),
    // Any text: an unknown state is the spec's code 26, not a schema failure.
    state: Type.Optional(Type.String({ maxLength: 100 })),
    company_id: Type.Optional(Type.Integer({ minimum: 1, description: 'reassignment: super admin only' })),
    confirm: Type.Optional(Type.Boolean({ description: 'must be true to reassign' })),
    rules: Type.Optional(
      Type.Array(RuleInput, {
        maxItems: 100,
        description: 'rules to create (no id) or update (id); rules not listed stay; 78, 50, 422',
      }),
    ),
  },
  { additionalProperties: false },
);

export const MetadataBody = Type.Object(
  {
    data_fields: Type.Array(
      Type.Object({
        // Loose types on purpose: the domain's metadataEntry rules judge them and name the failing field.
        data_field: NullableOf<string>('string', { maxLength: 200 }),
        label: NullableOf<string>('string', { maxLength: 1000 }),
        sort: Type.Unsafe<number | string | null>({ description: 'number or numeric text' }),
      }),
      { maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);

export const MetadataPayload = Type.Object({
  data_fields: Type.Array(
    Type.Object({ data_field: Type.String(), label: Type.String(), sort: Type.Integer() }),
  ),
});

export const CredentialsPayload = Type.Object({
  device_id: Type.Integer(),
  token: Type.String({ description: 'shown once; only its sha-256 is stored' }),
});

const Timestamp = Type.Union([Type.String({ maxLength: 40 }), Type.Number()]);

export const LogsQuery = Type.Object({
  level: Type.Optional(Type.String({ maxLength: 20, description: 'level name (emergency..debug) or 0..7' })),
  tsstart: Type.Optional(Timestamp),
  tsend: Type.Optional(Timestamp),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const LogEntry = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  level: Type.Integer(),
  level_name: Type.String(),
  message: Type.String({
    description:
      "in the reader's language (the user's locale) where the entry has a kind; entries written before it had one as stored",
  }),
  kind: Nullable(
    Type.String({
      description: 'kind of the platform text (SERVER_TEXTS of @iot/domain); null: older entry',
    }),
  ),
  params: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: "the kind's parameters" })),
  payload: Type.Unknown(),
  raw: Nullable(Type.String({ description: 'hex' })),
  created_at: Type.String({ format: 'date-time' }),
});

export const NotificationsQuery = Type.Object({
  status: Type.Optional(
    Type.Union(
      [Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed'), Type.Literal('skipped')],
      {
        description: 'queued (kept in the outbox), sent, failed or skipped (channel not configured)',
      },
    ),
  ),
  tsstart: Type.Optional(Timestamp),
  tsend: Type.Optional(Timestamp),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const NotificationEntry = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  rule_id: Nullable(Type.Integer()),
  rule_name: Nullable(Type.String({ description: 'null when the rule has been deleted since' })),
  alarm_id: Nullable(Type.Integer()),
  channel: Type.String({
    description: 'email, sms, voice_message, system, http, remote_control or farming_task',
  }),
  recipient: Nullable(
    Type.String({ description: 'addresses, phone number, system, URL without query, or device:<id>' }),
  ),
  status: Type.String({ description: 'queued, sent, failed or skipped' }),
  error: Nullable(Type.String()),
  via: Nullable(Type.String()),
  reference: Nullable(Type.String({ description: "the provider's message id (Twilio SID)" })),
  attempt: Nullable(Type.Integer()),
  max_attempts: Nullable(Type.Integer()),
  final: Type.Boolean({ description: 'a failure after which no attempt follows' }),
  created_at: Type.String({ format: 'date-time' }),
  sent_at: Nullable(Type.String({ format: 'date-time' })),
});

export const BatteryQuery = Type.Object({
  tsstart: Type.Optional(Timestamp),
  tsend: Type.Optional(Timestamp),
  max_points: Type.Optional(Type.Integer({ minimum: 10, maximum: 20_000 })),
});

/** Same bounds as the battery history. */
export const MobileDataQuery = Type.Object({ ...BatteryQuery.properties });

export const MobileDataPayload = Type.Object({
  device_id: Type.Integer(),
  mobile_data_volume: Nullable(Type.Number({ description: 'bytes used in the current billing period' })),
  history: SeriesPayload,
});

export type Device = Static<typeof DeviceListItem>;
export type DeviceDetails = Static<typeof DevicePayload>;
export type MapDeviceColumns = Static<typeof DeviceMapColumns>;
export type RotatedCredentials = Static<typeof CredentialsPayload>;
export type MobileData = Static<typeof MobileDataPayload>;
export type DeviceLog = Static<typeof LogEntry>;
export type DeviceNotification = Static<typeof NotificationEntry>;
export type DeviceMetadata = Static<typeof MetadataPayload>;
