import { api } from '../../../lib/api-client';
import { reloadCurrentUser } from '../../../lib/auth';

export interface CompanyInput {
  name: string;
  name2: string;
  street: string;
  street_number: string;
  zip: string;
  city: string;
  country_id: number | null;
  state_id: number | null;
  district_id: number | null;
  phone: string;
  email: string;
  /** A data URL; null removes the logo; left out, it stays. */
  logo?: string | null;
  /** Days device data and chart rollups are kept (issue #29); null: for ever; left out, they stay. */
  data_retention_days?: number | null;
  rollup_retention_days?: number | null;
}

/** PUT /core/company/ (the acting company's base data); the user, which carries the company, is re-read. */
export async function updateCompany(input: CompanyInput) {
  await api<unknown>('/core/company/', { method: 'PUT', body: input });
  return reloadCurrentUser();
}
