import { type Static, Type } from 'typebox';
import { CurrentPayload } from './device-data';

export const IDS_PATTERN = '^\\s*\\d{1,18}(\\s*,\\s*\\d{1,18})*\\s*,?\\s*$';

export const MAX_IDS = 1000;

const Ids = (description: string) => Type.String({ pattern: IDS_PATTERN, maxLength: 20_000, description });

export const ManyCurrentQuery = Type.Object({
  ids: Ids(`device ids, comma-separated, at most ${MAX_IDS}`),
  data_fields: Type.Optional(Type.String({ maxLength: 10_000, description: 'comma-separated; absent: all' })),
});

export const ManyCurrentPayload = Type.Object({
  devices: Type.Array(CurrentPayload, { description: 'ascending by device_id' }),
  missing: Type.Array(Type.Integer(), {
    description: 'asked ids that are not devices of the acting company',
  }),
});

export const PositionsQuery = Type.Object({
  ids: Type.Optional(Ids('only these devices (a map widget with device_ids)')),
  group_id: Type.Optional(Type.Integer({ minimum: 1 })),
  data_field: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_.:\\- ]{1,200}$', description: 'adds `value`: its latest value' }),
  ),
});

const NullableOf = (type: string, extra: Record<string, unknown> = {}) =>
  Type.Unsafe<unknown>({ type: [type, 'null'], ...extra });

export const PositionItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  state: Type.String(),
  is_active: Type.Boolean(),
  battery_level: NullableOf('number'),
  mains_powered: Type.Boolean(),
  last_online_at: NullableOf('string', { format: 'date-time' }),
  group_id: NullableOf('integer'),
  value: Type.Optional(Type.Unknown()),
});

export type ManyCurrentValues = Static<typeof ManyCurrentPayload>;
export type DevicePosition = Static<typeof PositionItem>;
