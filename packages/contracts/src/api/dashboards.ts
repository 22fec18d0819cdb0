import { TIME_RANGES, WIDGET_TYPES } from '@iot/domain';
import { type Static, Type } from 'typebox';

const SETTINGS_DOC = `per type: table { device_ids: int[], data_fields: string[] };

line_chart { series: [{ device_id, data_field }], range: ${TIME_RANGES.join('|')} | { tsstart, tsend },
tab?: day|week|month|year|range }; map { color_by: state|field, data_field? (with field), device_ids? (empty = all) }`;

// Integers only; the service checks the grid (12 columns, x + w <= 12) and answers per-field 422s.
const GridUnit = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 });

export const WidgetBody = Type.Object(
  {
    type: Type.String({ maxLength: 40, description: WIDGET_TYPES.join('|') }),
    title: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 10_000 })),
    x: GridUnit,
    y: GridUnit,
    w: GridUnit,
    h: GridUnit,
    settings: Type.Record(Type.String(), Type.Unknown(), { description: SETTINGS_DOC }),
  },
  { additionalProperties: false },
);

const Name = Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 10_000 });

const Widgets = Type.Array(WidgetBody, { maxItems: 1000 });

const Position = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'order among the dashboards' });

export const CreateDashboardBody = Type.Object(
  { name: Name, position: Type.Optional(Position), widgets: Type.Optional(Widgets) },
  { additionalProperties: false },
);

export const UpdateDashboardBody = Type.Object(
  {
    name: Type.Optional(Name),
    position: Type.Optional(Position),
    widgets: Type.Optional(
      Type.Array(WidgetBody, { maxItems: 1000, description: 'replaces the whole layout' }),
    ),
  },
  { additionalProperties: false },
);

export const WidgetPayload = Type.Object({
  id: Type.Integer({ description: 'new ids after every save of the layout' }),
  type: Type.String(),
  title: Type.String(),
  x: Type.Integer(),
  y: Type.Integer(),
  w: Type.Integer(),
  h: Type.Integer(),
  settings: Type.Record(Type.String(), Type.Unknown(), { description: SETTINGS_DOC }),
});

export const DashboardPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  position: Type.Integer(),
  created_by: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  widgets: Type.Array(WidgetPayload),
});

export type DashboardResponse = Static<typeof DashboardPayload>;
export type WidgetResponse = Static<typeof WidgetPayload>;
