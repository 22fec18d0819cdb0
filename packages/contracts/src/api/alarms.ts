import { type Static, Type } from 'typebox';
import { Nullable } from './common';

export const AlarmPayload = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  device_name: Type.String(),
  rule_id: Nullable(Type.Integer()),
  rule_name: Nullable(Type.String()),
  sensor_check_id: Nullable(Type.Integer()),
  sensor_check_kind: Nullable(Type.String()),
  state: Type.String({ description: 'raised | acknowledged | cleared' }),
  level: Type.Integer({ description: 'syslog severity, 4 warning' }),
  data_field: Nullable(Type.String()),
  value: Nullable(Type.Number()),
  message: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
  raised_at: Type.String({ format: 'date-time' }),
  acknowledged_at: Nullable(Type.String({ format: 'date-time' })),
  acknowledged_by: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  cleared_at: Nullable(Type.String({ format: 'date-time' })),
});

export const AlarmQuery = Type.Object({
  state: Type.Optional(
    Type.Union(
      ['open', 'raised', 'acknowledged', 'cleared'].map((s) => Type.Literal(s)),
      {
        description: 'absent: open alarms and those cleared within the last 24 hours',
      },
    ),
  ),
  device_id: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
});

export type Alarm = Static<typeof AlarmPayload>;
