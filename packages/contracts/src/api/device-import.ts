import { type Static, Type } from 'typebox';

export const DeviceImportQuery = Type.Object(
  { dry_run: Type.Optional(Type.Boolean({ description: 'true: only the preview, nothing written' })) },
  { additionalProperties: false },
);

export const DEVICE_IMPORT_REASONS = [
  'name_required',
  'name_too_long',
  'identifier_required',
  'type_unknown',
  'dev_eui_invalid',
  'latitude_invalid',
  'longitude_invalid',
  'group_unknown',
  'identifier_taken',
  'identifier_repeated',
] as const;

export const DeviceImportPayload = Type.Object({
  dry_run: Type.Boolean(),
  counts: Type.Object({ new: Type.Integer(), updated: Type.Integer(), invalid: Type.Integer() }),
  rows: Type.Array(
    Type.Object({
      line: Type.Integer({ description: 'line of the CSV file (the header is line 1)' }),
      status: Type.Union([Type.Literal('new'), Type.Literal('updated'), Type.Literal('invalid')]),
      name: Type.String(),
      device_id: Type.Union([Type.Integer(), Type.Null()]),
      reasons: Type.Array(Type.Unsafe<(typeof DEVICE_IMPORT_REASONS)[number]>({ type: 'string' })),
    }),
  ),
});

export type DeviceImportAnswer = Static<typeof DeviceImportPayload>;
