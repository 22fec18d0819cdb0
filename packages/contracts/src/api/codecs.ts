import { type Static, Type } from 'typebox';

/** Largest codec source the API stores (characters); public vendor codecs are 2 to 40 kB. */
export const CODEC_MAX_SCRIPT_CHARS = 256 * 1024;

// Loose string types for name: the domain's form rules judge required and length and name the field.
const Name = Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 10_000 });
// The schema's own bound sits above the API's limit so a too-large script gets 90013, not a schema 422.
const Script = Type.String({ maxLength: CODEC_MAX_SCRIPT_CHARS * 2, description: 'JavaScript (TS013)' });

export const CreateCodecBody = Type.Object({ name: Name, script: Script }, { additionalProperties: false });

export const UpdateCodecBody = Type.Object(
  { name: Type.Optional(Name), script: Type.Optional(Script) },
  { additionalProperties: false },
);

export const CodecPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  script: Type.String(),
  functions: Type.Array(Type.String(), {
    description:
      'entry points the script defines: decodeUplink, encodeDownlink, decodeDownlink, Decoder, ...',
  }),
  device_ids: Type.Array(Type.Integer(), { description: "the company's devices decoding with it" }),
  suspended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      'when ingest suspended it for running past its time budget again and again (90100): its uplinks are kept raw until the codec is saved again',
  }),
  suspended_reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

/** What a codec test runs: decode an uplink or a downlink's bytes, or encode a command. */
export const CodecTestBody = Type.Object(
  {
    operation: Type.Union([
      Type.Literal('decodeUplink'),
      Type.Literal('decodeDownlink'),
      Type.Literal('encodeDownlink'),
    ]),
    bytes: Type.Optional(
      Type.String({ maxLength: 1024, description: 'hex (with or without spaces) or base64; for decoding' }),
    ),
    f_port: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
    input: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'encodeDownlink input as the codec receives it, e.g. {"data": {...}, "command": "..."}',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CodecDraftTestBody = Type.Object(
  { ...CodecTestBody.properties, script: Script },
  { additionalProperties: false },
);

export const CodecTestPayload = Type.Object({
  data: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'decoded data as the codec shaped it' }),
  ),
  stored: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'decoded data as it would be stored (flattened)',
    }),
  ),
  bytes: Type.Optional(Type.String({ description: 'encoded downlink, hex' })),
  f_port: Type.Optional(Type.Integer()),
  warnings: Type.Array(Type.String()),
  errors: Type.Array(Type.String()),
  line: Type.Optional(Type.Integer({ description: 'script line an error points at' })),
});

export type Codec = Static<typeof CodecPayload>;
export type CodecTestRequest = Static<typeof CodecTestBody>;
export type CodecTestResult = Static<typeof CodecTestPayload>;

/** POST /core/devices/virtual: a device whose fields are formulas over other devices' fields. */
export const CreateVirtualDeviceBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 10_000 })),
    group_id: Type.Optional(Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1 })),
    fields: Type.Array(
      Type.Object(
        {
          key: Type.String({ maxLength: 64, description: 'data field name, e.g. soil_humidity_mean' }),
          formula: Type.String({
            maxLength: 1000,
            description:
              'over inputs named d<device id>.<field>, e.g. (d12.soil_humidity + d13.soil_humidity) / 2',
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);
export type CreateVirtualDeviceRequest = Static<typeof CreateVirtualDeviceBody>;
