/** Shapes of the /api/v1 answers the console reads: the API's contracts (@iot/contracts). */
import type { Company, Country, CurrentUser as CurrentUserResponse } from '@iot/contracts';

export type { Client, User as ManagedUser } from '@iot/contracts';

/**
 * The acting company. `open_membership_requests` and `relations.nwa` belong to the water association
 * module the spec describes; the API does not send them yet, so the console reads them as optional.
 */
export type CurrentCompany = Company & {
  open_membership_requests?: number;
  relations?: { nwa?: CompanyNwaRelation[] };
};

export type CurrentUser = Omit<CurrentUserResponse, 'company'> & { company: CurrentCompany };
/** A country, state or district of the address pickers (states and districts have no code). */
export type NamedItem = Pick<Country, 'id' | 'name'> & Partial<Pick<Country, 'code'>>;

export interface CompanyNwaRelation {
  id: number;
  name: string;
  /** true when the signed-in company administers this water association */
  is_admin?: boolean;
}
