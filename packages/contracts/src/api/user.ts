import { type Static, Type } from 'typebox';
import { CompanyPayload } from './company';
import { UserPayload } from './users';

/** The signed-in user as the console's start-up and guards read it (spec sections 2 and 3). */
export const CurrentUserPayload = Type.Object({
  ...UserPayload.properties,
  impersonated: Type.Boolean(),
  /** The acting company's id (the client while impersonating). */
  company_id: Type.Integer(),
  real_company_id: Type.Integer(),
  company: CompanyPayload,
});

export type CurrentUser = Static<typeof CurrentUserPayload>;
