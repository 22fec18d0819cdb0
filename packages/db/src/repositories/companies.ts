/**
 * Companies repository. A company is the tenant itself: reads and writes of one company take its id
 * (the acting company). Listing all companies is the super admin's client management and is unscoped on
 * purpose; callers check the super admin before calling it.
 */
import type { Queryable } from '../db';

export interface CompanyRecord {
  id: number;
  name: string;
  name2: string | null;
  street: string | null;
  streetNumber: string | null;
  zip: string | null;
  city: string | null;
  districtId: number | null;
  stateId: number | null;
  countryId: number | null;
  countryCode: string | null;
  phone: string | null;
  email: string | null;
  customerNumber: string | null;
  logo: string | null;
  modules: string[];
  isNwa: boolean;
  blocked: boolean;
  deletedAt: Date | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string;
  /** Support access (issue #27): 'consent' lets the super admin act as the client only while a grant runs. */
  supportAccess: 'always' | 'consent';
  supportAccessUntil: Date | null;
  /** Days raw device data is kept (issue #29); null: for ever, or as long as dataRetentionCap allows. */
  dataRetentionDays: number | null;
  /** Days the chart rollups are kept; null: for ever. */
  rollupRetentionDays: number | null;
  /** The super admin's cap on dataRetentionDays (limits.max_data_retention_days); null: none. */
  dataRetentionCap: number | null;
  createdAt: Date;
  updatedAt: Date;
}

interface CompanyRow {
  id: number;
  name: string;
  name2: string | null;
  street: string | null;
  street_number: string | null;
  zip: string | null;
  city: string | null;
  district_id: number | null;
  state_id: number | null;
  country_id: number | null;
  country_code: string | null;
  phone: string | null;
  email: string | null;
  customer_number: string | null;
  logo: string | null;
  modules: string[];
  is_nwa: boolean;
  blocked: boolean;
  deleted_at: Date | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string;
  support_access: 'always' | 'consent';
  support_access_until: Date | null;
  data_retention_days: number | null;
  rollup_retention_days: number | null;
  data_retention_cap: number | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `c.id::int AS id, c.name, c.name2, c.street, c.street_number, c.zip, c.city, c.district_id,
  c.state_id, c.country_id, co.code AS country_code, c.phone, c.email, c.customer_number, c.logo, c.modules,
  c.is_nwa, c.blocked, c.deleted_at, c.latitude, c.longitude, c.timezone, c.support_access,
  c.support_access_until, c.data_retention_days, c.rollup_retention_days,
  (c.limits->>'max_data_retention_days')::int AS data_retention_cap, c.created_at, c.updated_at`;

function toCompany(row: CompanyRow): CompanyRecord {
  return {
    id: row.id,
    name: row.name,
    name2: row.name2,
    street: row.street,
    streetNumber: row.street_number,
    zip: row.zip,
    city: row.city,
    districtId: row.district_id,
    stateId: row.state_id,
    countryId: row.country_id,
    countryCode: row.country_code,
    phone: row.phone,
    email: row.email,
    customerNumber: row.customer_number,
    logo: row.logo,
    modules: row.modules ?? [],
    isNwa: row.is_nwa,
    blocked: row.blocked,
    deletedAt: row.deleted_at,
    latitude: row.latitude,
    longitude: row.longitude,
    timezone: row.timezone,
    supportAccess: row.support_access,
    supportAccessUntil: row.support_access_until,
    dataRetentionDays: row.data_retention_days,
    rollupRetentionDays: row.rollup_retention_days,
    dataRetentionCap: row.data_retention_cap,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The acting company, deleted or not (callers decide what a deleted company means for them). */
export async function findCompany(q: Queryable, companyId: number): Promise<CompanyRecord | null> {
  const { rows } = await q.query<CompanyRow>(
    `SELECT ${COLUMNS} FROM companies c LEFT JOIN countries co ON co.id = c.country_id WHERE c.id = $1`,
    [companyId],
  );
  return rows[0] ? toCompany(rows[0]) : null;
}

export interface NewCompany {
  name: string;
  modules?: string[];
  isNwa?: boolean;
  blocked?: boolean;
  email?: string | null;
}

export async function insertCompany(q: Queryable, company: NewCompany): Promise<CompanyRecord> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO companies (name, modules, is_nwa, blocked, email) VALUES ($1, $2, $3, $4, $5) RETURNING id::int AS id`,
    [
      company.name,
      company.modules ?? [],
      company.isNwa ?? false,
      company.blocked ?? false,
      company.email ?? null,
    ],
  );
  return (await findCompany(q, rows[0]!.id))!;
}

/** Base data a company edits itself (spec section 3). */
export interface CompanyBaseData {
  name?: string;
  name2?: string | null;
  street?: string | null;
  streetNumber?: string | null;
  zip?: string | null;
  city?: string | null;
  districtId?: number | null;
  stateId?: number | null;
  countryId?: number | null;
  phone?: string | null;
  email?: string | null;
  customerNumber?: string | null;
  logo?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  /** Retention of device data and chart rollups in days (issue #29; the API checks them). */
  dataRetentionDays?: number | null;
  rollupRetentionDays?: number | null;
}

const BASE_COLUMNS: Record<keyof CompanyBaseData, string> = {
  name: 'name',
  name2: 'name2',
  street: 'street',
  streetNumber: 'street_number',
  zip: 'zip',
  city: 'city',
  districtId: 'district_id',
  stateId: 'state_id',
  countryId: 'country_id',
  phone: 'phone',
  email: 'email',
  customerNumber: 'customer_number',
  logo: 'logo',
  latitude: 'latitude',
  longitude: 'longitude',
  dataRetentionDays: 'data_retention_days',
  rollupRetentionDays: 'rollup_retention_days',
};

export async function updateCompanyBaseData(
  q: Queryable,
  companyId: number,
  data: CompanyBaseData,
): Promise<CompanyRecord | null> {
  const sets: string[] = [];
  const params: unknown[] = [companyId];
  for (const [key, column] of Object.entries(BASE_COLUMNS) as [keyof CompanyBaseData, string][]) {
    if (data[key] === undefined) continue;
    params.push(data[key]);
    sets.push(`${column} = $${params.length}`);
  }
  sets.push('updated_at = now()');
  const { rowCount } = await q.query(
    `UPDATE companies SET ${sets.join(', ')} WHERE id = $1 AND deleted_at IS NULL`,
    params,
  );
  return rowCount > 0 ? findCompany(q, companyId) : null;
}

export interface ClientSummary {
  id: number;
  name: string;
  city: string | null;
  email: string | null;
  customerNumber: string | null;
  modules: string[];
  isNwa: boolean;
  blocked: boolean;
  userCount: number;
  deviceCount: number;
  createdAt: Date;
}

/**
 * All live companies with their user and device counts, for the super admin's client list.
 * Device counts come from the `devices` table once its migration exists; before that they are 0.
 */
export async function listClients(q: Queryable): Promise<ClientSummary[]> {
  const { rows: probe } = await q.query<{ present: boolean }>(
    `SELECT to_regclass('public.devices') IS NOT NULL AS present`,
  );
  const deviceCount = probe[0]?.present
    ? '(SELECT count(*)::int FROM devices d WHERE d.company_id = c.id)'
    : '0';
  const { rows } = await q.query<{
    id: number;
    name: string;
    city: string | null;
    email: string | null;
    customer_number: string | null;
    modules: string[];
    is_nwa: boolean;
    blocked: boolean;
    user_count: number;
    device_count: number;
    created_at: Date;
  }>(
    `SELECT c.id::int AS id, c.name, c.city, c.email, c.customer_number, c.modules, c.is_nwa, c.blocked, c.created_at,
            (SELECT count(*)::int FROM users u WHERE u.company_id = c.id AND u.deleted_at IS NULL) AS user_count,
            ${deviceCount} AS device_count
       FROM companies c WHERE c.deleted_at IS NULL ORDER BY lower(c.name), c.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    city: r.city,
    email: r.email,
    customerNumber: r.customer_number,
    modules: r.modules ?? [],
    isNwa: r.is_nwa,
    blocked: r.blocked,
    userCount: r.user_count,
    deviceCount: r.device_count,
    createdAt: r.created_at,
  }));
}

export interface ClientChanges {
  blocked?: boolean;
  modules?: string[];
  isNwa?: boolean;
}

/** Super admin changes to a client: block or unblock, licensed modules, NWA flag. */
export async function updateClient(
  q: Queryable,
  companyId: number,
  changes: ClientChanges,
): Promise<CompanyRecord | null> {
  const sets: string[] = [];
  const params: unknown[] = [companyId];
  const columns: [keyof ClientChanges, string][] = [
    ['blocked', 'blocked'],
    ['modules', 'modules'],
    ['isNwa', 'is_nwa'],
  ];
  for (const [key, column] of columns) {
    if (changes[key] === undefined) continue;
    params.push(changes[key]);
    sets.push(`${column} = $${params.length}`);
  }
  sets.push('updated_at = now()');
  const { rowCount } = await q.query(
    `UPDATE companies SET ${sets.join(', ')} WHERE id = $1 AND deleted_at IS NULL`,
    params,
  );
  return rowCount > 0 ? findCompany(q, companyId) : null;
}

/** Soft delete: the company's sessions stop working (code 75) and it leaves the client list. */
export async function softDeleteCompany(q: Queryable, companyId: number): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE companies SET deleted_at = now(), updated_at = now() WHERE id = $1 AND deleted_at IS NULL',
    [companyId],
  );
  return rowCount > 0;
}

export interface NewSupportRequest {
  userId: number | null;
  subject: string;
  message: string;
  email?: string | null;
  phone?: string | null;
  context?: Record<string, unknown>;
}

/** Stores a support request of the company (POST /core/support); returns its id. */
export async function insertSupportRequest(
  q: Queryable,
  companyId: number,
  request: NewSupportRequest,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO support_requests (company_id, user_id, subject, message, email, phone, context)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::int AS id`,
    [
      companyId,
      request.userId,
      request.subject,
      request.message,
      request.email ?? null,
      request.phone ?? null,
      JSON.stringify(request.context ?? {}),
    ],
  );
  return rows[0]!.id;
}
