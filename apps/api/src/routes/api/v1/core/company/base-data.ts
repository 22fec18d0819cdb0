/**
 * The base data fields of a company request body (snake_case, spec section 3) as repository columns, for
 * the company's own settings and the super admin's client routes.
 */
import type { CompanyBaseData } from '@iot/db';

const COLUMN_OF: Record<string, keyof CompanyBaseData> = {
  name: 'name',
  name2: 'name2',
  street: 'street',
  street_number: 'streetNumber',
  zip: 'zip',
  city: 'city',
  district_id: 'districtId',
  state_id: 'stateId',
  country_id: 'countryId',
  phone: 'phone',
  email: 'email',
  customer_number: 'customerNumber',
  logo: 'logo',
  latitude: 'latitude',
  longitude: 'longitude',
  data_retention_days: 'dataRetentionDays',
  rollup_retention_days: 'rollupRetentionDays',
};

export function baseDataOf(body: Record<string, unknown>): CompanyBaseData {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const column = COLUMN_OF[key];
    if (column && value !== undefined) data[column] = value;
  }
  return data as CompanyBaseData;
}
