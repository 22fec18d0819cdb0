import { type Static, Type } from 'typebox';

const DeviceIds = Type.Array(Type.Integer({ minimum: 1 }), {
  maxItems: 100_000,
  description: "exactly the group's devices afterwards: listed ones are assigned, the rest unassigned",
});

// Loose string types: the domain's form rules judge required and length and name the failing field.
export const CreateGroupBody = Type.Object(
  {
    name: Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 10_000 }),
    description: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 10_000 })),
    device_ids: Type.Optional(DeviceIds),
  },
  { additionalProperties: false },
);

export const UpdateGroupBody = Type.Object(
  {
    name: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 10_000 })),
    description: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 10_000 })),
    device_ids: Type.Optional(DeviceIds),
  },
  { additionalProperties: false },
);

export const GroupPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  device_count: Type.Integer(),
  device_ids: Type.Array(Type.Integer()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export type Group = Static<typeof GroupPayload>;
