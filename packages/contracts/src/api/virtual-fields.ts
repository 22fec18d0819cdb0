import { type Static, Type } from 'typebox';
import { Nullable } from './common';

const NullText = (maxLength: number, description?: string) =>
  Type.Unsafe<string | null>({
    type: ['string', 'null'],
    maxLength,
    ...(description ? { description } : {}),
  });

const Mapping = Type.Unsafe<Record<string, string | number> | null>({
  type: ['object', 'null'],
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }] },
  maxProperties: 200,
  description: 'value -> label; keys exact ("0", "true") or ranges ("10..20", "..0", "30..")',
});

const definition = {
  // Longer than the engine's 100 so that a long name is the catalogue's 88, not a schema failure.
  name: Type.Optional(
    Type.String({ maxLength: 1000, description: 'short name; the data field is virtual.<uuid>.<name>' }),
  ),
  unit: Type.Optional(NullText(50)),
  formula: Type.Optional(NullText(5000, 'restricted mathjs, at most 1000 characters (89 too_long)')),
  function: Type.Optional(
    NullText(
      100,
      'count_up_hourly, count_up_daily, diff_to_last, moving_average_hourly, moving_average_daily, sum_up',
    ),
  ),
  mapping: Type.Optional(Mapping),
  store: Type.Optional(Type.Boolean()),
};

export const VirtualFieldBody = Type.Object(definition, { additionalProperties: false });

export const PreviewBody = Type.Object(
  {
    ...definition,
    data_fields: Type.Record(Type.String(), Type.Unknown(), {
      description: 'sample values, e.g. { temperature: 21 }',
    }),
    device_id: Type.Optional(Type.Integer({ minimum: 1, description: "also read this device's fields" })),
    field_id: Type.Optional(Type.Integer({ minimum: 1, description: 'the virtual field being edited' })),
  },
  { additionalProperties: false },
);

export const PreviewPayload = Type.Object({
  data_field: Type.String(),
  value: Type.Union([Type.String(), Type.Number(), Type.Null()]),
  numeric: Nullable(Type.Number()),
  error: Nullable(Type.String({ description: 'missing_input or non_finite when there is no value' })),
});

export const VirtualFieldPayload = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  uuid: Type.String(),
  name: Type.String(),
  data_field: Type.String({ description: 'virtual.<uuid>.<name>' }),
  unit: Nullable(Type.String()),
  formula: Nullable(Type.String()),
  function: Nullable(Type.String()),
  mapping: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
  store: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const FieldParams = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  fieldId: Type.Integer({ minimum: 1 }),
});

export type VirtualField = Static<typeof VirtualFieldPayload>;
export type VirtualPreview = Static<typeof PreviewPayload>;
