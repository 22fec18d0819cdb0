import { type Static, Type } from 'typebox';
import { Nullable } from './common';

const NullNumber = Type.Unsafe<number | null>({ type: ['number', 'null'] });

export const SensorCheckBody = Type.Object(
  {
    kind: Type.String({ maxLength: 40, description: 'no_data | implausible_value | battery_low' }),
    data_field: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 300 })),
    max_silence_seconds: Type.Optional(Type.Unsafe<number | null>({ type: ['integer', 'null'] })),
    min_value: Type.Optional(NullNumber),
    max_value: Type.Optional(NullNumber),
    level: Type.Optional(NullNumber),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SensorCheckPayload = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  kind: Type.String(),
  data_field: Nullable(Type.String()),
  max_silence_seconds: Nullable(Type.Integer()),
  min_value: Nullable(Type.Number()),
  max_value: Nullable(Type.Number()),
  level: Nullable(Type.Number({ description: 'battery_low only' })),
  is_active: Type.Boolean(),
  last_checked_at: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const FormBody = Type.Object(
  { data_fields: Type.Array(Type.String({ maxLength: 300 }), { maxItems: 500 }) },
  { additionalProperties: false },
);

export const FormPayload = Type.Object({
  kinds: Type.Array(Type.String()),
  data_fields: Type.Array(
    Type.Object({ data_field: Type.String(), min: Type.Number(), max: Type.Number(), step: Type.Number() }),
  ),
});

export const CheckParams = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  checkId: Type.Integer({ minimum: 1 }),
});

export type SensorCheck = Static<typeof SensorCheckPayload>;
export type SensorCheckForm = Static<typeof FormPayload>;
