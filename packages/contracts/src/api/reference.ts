import { type Static, Type } from 'typebox';

export const CountryPayload = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() });
export const NamedRefPayload = Type.Object({ id: Type.Integer(), name: Type.String() });

export type Country = Static<typeof CountryPayload>;
export type NamedRef = Static<typeof NamedRefPayload>;
