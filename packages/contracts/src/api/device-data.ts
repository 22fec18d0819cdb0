import { type Static, Type } from 'typebox';
import { Nullable } from './common';

const Timestamp = Type.Union([Type.String({ maxLength: 40 }), Type.Number()], {
  description: 'ISO 8601 or epoch milliseconds',
});

const Shape = Type.Optional(
  Type.Union([Type.Literal('nested'), Type.Literal('flat')], {
    description:
      'nested (default): data as the codec shaped it (stored `alarm.level` comes back as {alarm: {level}}); flat: the stored field names',
  }),
);

export const SeriesQuery = Type.Object({
  shape: Shape,
  data_fields: Type.Optional(Type.String({ maxLength: 4000, description: 'comma-separated; absent: all' })),
  tsstart: Type.Optional(Timestamp),
  tsend: Type.Optional(Timestamp),
  last_record: Type.Optional(Type.Boolean({ description: 'true: only the newest record' })),
  max_points: Type.Optional(
    Type.Integer({
      minimum: 10,
      maximum: 20_000,
      description: 'above this many rows: buckets (default 1500)',
    }),
  ),
});

export const DataPointSchema = Type.Object({
  created_at: Type.String({ format: 'date-time', description: 'time of the point, or start of the bucket' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'requested fields; bucket: the average' }),
  geo: Nullable(
    Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[latitude, longitude]' }),
  ),
  metalabel: Nullable(Type.String()),
  count: Type.Optional(Type.Integer({ description: 'downsampled: rows in the bucket' })),
  min: Type.Optional(
    Type.Record(Type.String(), Nullable(Type.Number()), { description: 'by stored field name' }),
  ),
  max: Type.Optional(
    Type.Record(Type.String(), Nullable(Type.Number()), { description: 'by stored field name' }),
  ),
});

export const SeriesPayload = Type.Object({
  device_id: Type.Integer(),
  data_fields: Nullable(Type.Array(Type.String())),
  tsstart: Type.String({ format: 'date-time' }),
  tsend: Type.String({ format: 'date-time' }),
  total: Type.Integer({ description: 'rows in the period' }),
  downsampled: Type.Boolean(),
  bucket_seconds: Nullable(Type.Integer()),
  points: Type.Array(DataPointSchema),
});

export const CurrentQuery = Type.Object({
  data_fields: Type.Optional(Type.String({ maxLength: 4000 })),
  shape: Shape,
});

export const CurrentPayload = Type.Object({
  device_id: Type.Integer(),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'shaped as `shape` asks' }),
  field_times: Type.Record(Type.String(), Nullable(Type.String()), { description: 'by stored field name' }),
  stale: Type.Record(Type.String(), Type.Boolean(), { description: 'older than 8 hours (spec section 4)' }),
  geo: Nullable(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 })),
});

export type DataPoint = Static<typeof DataPointSchema>;
export type DeviceSeries = Static<typeof SeriesPayload>;
export type CurrentValues = Static<typeof CurrentPayload>;
