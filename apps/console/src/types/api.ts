/** Shapes of the /api/v1 answers the console reads (the API helper owns the server side). */

export interface CompanyNwaRelation {
  id: number;
  name: string;
  /** true when the signed-in company administers this water association */
  is_admin?: boolean;
}

export interface CurrentCompany {
  id: number;
  name: string;
  modules: string[];
  is_nwa: boolean;
  /** open membership requests, shown as a badge on the water members entry (NWA companies) */
  open_membership_requests?: number;
  relations?: { nwa?: CompanyNwaRelation[] };
  name2?: string | null;
  street?: string | null;
  street_number?: string | null;
  zip?: string | null;
  city?: string | null;
  country_id?: number | null;
  state_id?: number | null;
  district_id?: number | null;
  phone?: string | null;
  email?: string | null;
  /** ISO alpha-2 code of the address country */
  country?: string | null;
  customer_number?: string | null;
}

export interface CurrentUser {
  id: number;
  email: string;
  name: string;
  locale: string;
  roles: string[];
  eula_accepted: boolean;
  require_password_reset: boolean;
  impersonated: boolean;
  company_id: number;
  company: CurrentCompany;
}

export interface ManagedUser {
  id: number;
  email: string;
  name: string;
  locale: string;
  roles: string[];
  last_login?: string | null;
}

export interface Client {
  id: number;
  name: string;
  city?: string | null;
  email?: string | null;
  user_count?: number;
  device_count?: number;
  customer_number?: string | null;
  modules?: string[];
  is_nwa?: boolean;
  blocked?: boolean;
}

export interface NamedItem {
  id: number;
  name: string;
  code?: string;
}

export interface ApiFailureBody {
  code?: number;
  message?: string;
}
