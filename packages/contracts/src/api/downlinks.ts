import { type Static, Type } from 'typebox';
import { Nullable } from './common';

export const DownlinkBody = Type.Object(
  {
    // Any text: an unknown command is the catalogue's 92, not a schema failure.
    command: Type.String({
      maxLength: 100,
      description: 'a command of the domain catalogue (ACTION_COMMANDS)',
    }),
    params: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'e.g. { output: 1, on: true }' }),
    ),
  },
  { additionalProperties: false },
);

/** How a LoRaWAN command's network server report finds it again. */
const REFERENCE =
  "ChirpStack's queue item id, or the correlation id the command was pushed to The Things Stack with; " +
  'null over MQTT';

export const SentPayload = Type.Object({
  id: Type.Integer(),
  state: Type.String(),
  command: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  fport: Type.Integer(),
  encoded: Type.String({ description: 'hex of the bytes sent' }),
  via: Type.String({
    description: 'mqtt, or for a LoRaWAN device tts or chirpstack (queued at its network server)',
  }),
  topic: Nullable(Type.String({ description: 'the MQTT topic; null for LoRaWAN' })),
  reference: Nullable(Type.String({ description: REFERENCE })),
});

export const DownlinkPayload = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  command: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  encoded: Nullable(Type.String()),
  fport: Nullable(Type.Integer()),
  state: Type.String({
    description:
      'queued | sent | acknowledged | failed; a LoRaWAN command becomes acknowledged or failed when its network server reports',
  }),
  attempts: Type.Integer(),
  error: Nullable(Type.String()),
  reference: Nullable(Type.String({ description: REFERENCE })),
  created_by: Nullable(Type.Integer()),
  rule_id: Nullable(Type.Integer()),
  created_at: Type.String({ format: 'date-time' }),
  sent_at: Nullable(Type.String({ format: 'date-time' })),
  acknowledged_at: Nullable(Type.String({ format: 'date-time' })),
});

export const DownlinksQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export type Downlink = Static<typeof DownlinkPayload>;
export type SentDownlink = Static<typeof SentPayload>;
