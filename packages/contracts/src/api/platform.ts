import { type Static, Type } from 'typebox';

export const ModuleEntry = Type.Object({ name: Type.String(), licensed: Type.Boolean() });
export const DriverPayload = Type.Object({
  id: Type.String(),
  name: Type.String(),
  device_type: Type.String(),
  description: Type.String(),
  commands: Type.Array(Type.String(), { description: 'downlink commands the driver can encode' }),
});

export const SupportBody = Type.Object(
  {
    subject: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.String({ minLength: 1, maxLength: 10_000 }),
    phone: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const VersionPayload = Type.Object({
  version: Type.String(),
  api: Type.String(),
  map_style_url: Type.Union([Type.String(), Type.Null()]),
});

export type ModuleLicence = Static<typeof ModuleEntry>;
export type Driver = Static<typeof DriverPayload>;
export type Version = Static<typeof VersionPayload>;
