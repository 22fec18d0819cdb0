/**
 * The uplink record on the event log topic `uplinks` (key = device id): written by ingest's front doors,
 * read by the storage writer and the rules worker. JSON on every adapter, so times are ISO strings.
 */
import { type Static, Type } from 'typebox';

export const UPLINKS_TOPIC = 'uplinks';
/** The rules worker's consumer group on `uplinks`. */
export const RULES_WORKER_GROUP = 'rules-worker';

/**
 * A decoded value. Codecs produce flat records of numbers, strings and booleans today; the contract
 * admits null and nesting so a codec that emits them stays a valid record.
 */
export type UplinkDataValue = number | string | boolean | null | UplinkDataValue[] | UplinkData;
export type UplinkData = { [field: string]: UplinkDataValue };

// Unsafe: a recursive value type reads better as its TypeScript type than as a cyclic schema.
export const UplinkDataSchema = Type.Unsafe<UplinkData>({
  type: 'object',
  additionalProperties: true,
  description: 'decoded data: field name -> number, string, boolean, null or nested',
});

export const UplinkSourceSchema = Type.Union([
  Type.Literal('mqtt'),
  Type.Literal('http'),
  Type.Literal('chirpstack'),
  Type.Literal('tts'),
]);
export type UplinkSource = Static<typeof UplinkSourceSchema>;

/**
 * - `uplink`: decoded data, stored as a data point.
 * - `decode_failed`: the raw payload that could not be decoded; kept in device_logs (level 3), no data point.
 * - `status`: device status only (e.g. a ChirpStack status event's battery), no data point.
 * - `log`: a network server's event about the device (join, ChirpStack log/ack, TTS downlink events), kept
 *   in device_logs only; with `downlink`, it also settles the downlink it reports on.
 * Consumers that only want measurements (rules) take `kind === 'uplink'`.
 */
export const UplinkKindSchema = Type.Union([
  Type.Literal('uplink'),
  Type.Literal('decode_failed'),
  Type.Literal('status'),
  Type.Literal('log'),
]);
export type UplinkKind = Static<typeof UplinkKindSchema>;

/**
 * What a network server reported about a downlink the notifier gave it, found by the reference stored
 * with the downlink (ChirpStack's queue item id; for The Things Stack the notifier's correlation id).
 */
export const DownlinkOutcomeSchema = Type.Object({
  reference: Type.String(),
  state: Type.Union([Type.Literal('acknowledged'), Type.Literal('failed')]),
  error: Type.Optional(Type.String({ description: 'why it failed, as the network server said' })),
});
export type DownlinkOutcome = Static<typeof DownlinkOutcomeSchema>;

export const GeoSchema = Type.Object({ latitude: Type.Number(), longitude: Type.Number() });

export const UplinkEnvelopeSchema = Type.Object({
  v: Type.Literal(1),
  kind: UplinkKindSchema,
  deviceId: Type.Integer(),
  companyId: Type.Integer(),
  source: UplinkSourceSchema,
  receivedAt: Type.String({ description: 'when the front door received it (ISO)' }),
  measuredAt: Type.String({
    description: "when it was measured: the network server's time when it gives one, else receivedAt (ISO)",
  }),
  messageId: Type.String({
    description: "identifies the uplink at its source; the storage writer's dedupe key with device and time",
  }),
  data: UplinkDataSchema,
  geo: Type.Optional(GeoSchema),
  fcnt: Type.Optional(Type.Integer()),
  fPort: Type.Optional(Type.Integer()),
  rssi: Type.Optional(Type.Number()),
  snr: Type.Optional(Type.Number()),
  warnings: Type.Optional(
    Type.Array(Type.String(), { description: 'decoder warnings (device log level 4)' }),
  ),
  errors: Type.Optional(
    Type.Array(Type.String(), {
      description: 'decoder errors of a decode_failed record (device log level 3)',
    }),
  ),
  raw: Type.Optional(Type.String({ description: 'the undecodable payload, base64' })),
  log: Type.Optional(
    Type.Object(
      {
        level: Type.Integer(),
        message: Type.String(),
        kind: Type.Optional(Type.String({ description: 'kind of SERVER_TEXTS (@iot/domain) the entry is' })),
        params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      },
      {
        description: 'device log entry of a log record (level on the DEVICE_LOG_LEVEL scale of @iot/domain)',
      },
    ),
  ),
  downlink: Type.Optional(DownlinkOutcomeSchema),
  metadata: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'transport details worth keeping (gateway, DevEUI, LNS ids, data rate)',
    }),
  ),
});
export type UplinkEnvelope = Static<typeof UplinkEnvelopeSchema>;

/** The part of an `uplink` record the rules worker reads. */
export type RuleUplink = Pick<
  UplinkEnvelope,
  'deviceId' | 'companyId' | 'receivedAt' | 'measuredAt' | 'messageId' | 'data' | 'geo' | 'fcnt'
>;
