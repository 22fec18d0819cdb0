/**
 * /farming (issue 24; spec sections 3, 4, 7): fields, parcels, the soil and plant catalogues, the task
 * planner, and /core/weather. Sizes are square metres; a field's size_m2 is the sum of its parcels'.
 */
import { type Static, Type } from 'typebox';
import { Nullable } from './common';

const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 3 });
const Ring = Type.Array(Position, { minItems: 4, maxItems: 10_000 });

/** A GeoJSON Polygon or MultiPolygon in WGS84 (like FIWARE AgriParcel `location`). */
export const Boundary = Type.Union([
  Type.Object({
    type: Type.Literal('Polygon'),
    coordinates: Type.Array(Ring, { minItems: 1, maxItems: 100 }),
  }),
  Type.Object({
    type: Type.Literal('MultiPolygon'),
    coordinates: Type.Array(Type.Array(Ring, { minItems: 1, maxItems: 100 }), { minItems: 1, maxItems: 100 }),
  }),
]);
export type FieldBoundary = Static<typeof Boundary>;

const Text = (max: number) => Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: max });
const Ids = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 10_000 });

export const FieldParcelPayload = Type.Object({
  id: Type.Integer(),
  parcel_id: Type.String(),
  registration_number: Type.String(),
  size_m2: Type.Number(),
});

export const FieldPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  count_devices: Type.Integer(),
  count_parcels: Type.Integer(),
  size_m2: Type.Number({ description: "sum of the parcels' size_m2 (spec section 4)" }),
  device_ids: Type.Array(Type.Integer()),
  parcels: Type.Array(FieldParcelPayload),
  plant: Nullable(Type.String({ description: 'plant catalogue code' })),
  soil: Nullable(Type.String({ description: 'soil catalogue code' })),
  boundary: Nullable(Boundary),
  boundary_area_m2: Nullable(Type.Number({ description: 'area of the boundary, computed by the server' })),
  updated_at: Type.String({ format: 'date-time' }),
});
export type FarmingField = Static<typeof FieldPayload>;

export const CreateFieldBody = Type.Object(
  {
    name: Text(200),
    plant: Type.Optional(Text(40)),
    soil: Type.Optional(Text(40)),
    boundary: Type.Optional(Nullable(Boundary)),
    device_ids: Type.Optional(Ids),
    parcels: Type.Optional(Ids),
  },
  { additionalProperties: false },
);
export const UpdateFieldBody = Type.Object(
  {
    name: Type.Optional(Text(200)),
    plant: Type.Optional(Text(40)),
    soil: Type.Optional(Text(40)),
    boundary: Type.Optional(Nullable(Boundary)),
  },
  { additionalProperties: false },
);
export type FieldInput = Static<typeof CreateFieldBody>;

export const FieldIdParams = Type.Object({ field_id: Type.Integer({ minimum: 1 }) });
export const AssignDevicesBody = Type.Object(
  { field_id: Type.Optional(Type.Integer({ minimum: 1 })), device_ids: Ids },
  { additionalProperties: false },
);
export const AssignParcelsBody = Type.Object(
  { field_id: Type.Optional(Type.Integer({ minimum: 1 })), parcels: Ids },
  { additionalProperties: false },
);

export const FieldDevicesQuery = Type.Object({ field_id: Type.Optional(Type.Integer({ minimum: 1 })) });
export const FieldDevicePayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  device_type: Nullable(Type.String()),
  field_id: Nullable(Type.Integer()),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
});
export type FieldDevice = Static<typeof FieldDevicePayload>;

export const ParcelPayload = Type.Object({
  id: Type.Integer(),
  parcel_id: Type.String({ description: 'plot number (e.g. SCHLAGNR)' }),
  registration_number: Type.String({ description: 'FLIK for German companies' }),
  size_m2: Type.Number(),
  field: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  boundary: Nullable(Boundary),
  valid_from: Nullable(Type.String({ format: 'date' })),
  valid_to: Nullable(Type.String({ format: 'date' })),
});
export type Parcel = Static<typeof ParcelPayload>;

const DateText = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date' });
export const CreateParcelBody = Type.Object(
  {
    parcel_id: Text(100),
    registration_number: Type.Optional(Text(100)),
    size_m2: Type.Number({ minimum: 0, maximum: 1e12 }),
    boundary: Type.Optional(Nullable(Boundary)),
    valid_from: Type.Optional(DateText),
    valid_to: Type.Optional(DateText),
  },
  { additionalProperties: false },
);
export const UpdateParcelBody = Type.Partial(CreateParcelBody, { additionalProperties: false });
export type ParcelInput = Static<typeof CreateParcelBody>;

export const CatalogueEntryPayload = Type.Object({
  id: Nullable(Type.Integer({ description: 'null for a built-in entry' })),
  code: Type.String(),
  name_de: Type.String(),
  name_en: Type.String(),
  builtin: Type.Boolean(),
});
export type CatalogueEntry = Static<typeof CatalogueEntryPayload>;
export const CreateCatalogueEntryBody = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 40 }),
    name_de: Type.String({ minLength: 1, maxLength: 100 }),
    name_en: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);

export const UpdateCatalogueEntryBody = Type.Object(
  {
    name_de: Type.String({ minLength: 1, maxLength: 100 }),
    name_en: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);

// Tasks

export const TaskStatusSchema = Type.Union([
  Type.Literal('planned'),
  Type.Literal('in_progress'),
  Type.Literal('done'),
  Type.Literal('abandoned'),
]);

export const TaskEventPayload = Type.Object({
  at: Type.String({ format: 'date-time' }),
  user_id: Nullable(Type.Integer()),
  user_name: Nullable(Type.String()),
  kind: Type.String({ description: 'created, status, assigned or edited' }),
  changes: Type.Record(Type.String(), Type.Unknown()),
});

export const TaskPayload = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  type: Type.String(),
  status: TaskStatusSchema,
  abandon_reason: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  due_at: Nullable(Type.String({ format: 'date-time' })),
  completed_at: Nullable(Type.String({ format: 'date-time' })),
  assignee_user_id: Nullable(Type.Integer()),
  field_ids: Type.Array(Type.Integer(), { description: 'the fields the task is on' }),
  source_rule_id: Nullable(Type.Integer()),
  late: Type.Boolean({ description: 'derived: due date passed while planned or in progress' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  history: Type.Optional(Type.Array(TaskEventPayload)),
});
export type FarmingTask = Static<typeof TaskPayload>;

export const TaskListQuery = Type.Object({
  view: Type.Optional(
    Type.Union([
      Type.Literal('all'),
      Type.Literal('mine'),
      Type.Literal('overdue'),
      Type.Literal('upcoming'),
      Type.Literal('done'),
    ]),
  ),
  from: Type.Optional(Type.String({ format: 'date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
  field_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const CreateTaskBody = Type.Object(
  {
    title: Type.String({ maxLength: 10_000 }),
    type: Type.String({
      maxLength: 40,
      description:
        'sowing, fertilising, irrigation, plant_protection, harvest, soil_sampling, maintenance, custom',
    }),
    status: Type.Optional(TaskStatusSchema),
    abandon_reason: Type.Optional(Text(500)),
    notes: Type.Optional(Text(5000)),
    due_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
    assignee_user_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    field_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500 })),
  },
  { additionalProperties: false },
);
export const UpdateTaskBody = Type.Partial(CreateTaskBody, { additionalProperties: false });
export type TaskInput = Static<typeof CreateTaskBody>;

// Weather at a point

export const WeatherQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
});

export const WeatherValuePayload = Type.Object({
  value: Type.Number(),
  unit: Type.String(),
  observed_at: Type.String({ format: 'date-time' }),
  source: Type.Object({
    kind: Type.Union([Type.Literal('device'), Type.Literal('provider')]),
    device_id: Type.Optional(Type.Integer()),
    distance_m: Type.Optional(Type.Number()),
    provider: Type.Optional(Type.String()),
    station: Type.Optional(Type.String()),
  }),
});

export const WeatherPayload = Type.Object({
  values: Type.Record(Type.String(), WeatherValuePayload, {
    description:
      'temperature, relative_humidity, precipitation, wind_speed, wind_direction, pressure, uv_index',
  }),
  /** Empty values: why (no_station_no_provider, provider_failed). */
  reason: Nullable(Type.String()),
  stale: Type.Boolean({ description: 'a cached provider answer served after a failed refresh' }),
});
export type Weather = Static<typeof WeatherPayload>;
