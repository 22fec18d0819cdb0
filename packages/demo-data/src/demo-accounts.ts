/**
 * The demo tenants and logins of the embedded profile. They exist only when DEMO_DATA is on
 * (the default for `npm start`) and are listed in the README.
 */
export const DEMO_PASSWORD = 'DemoPass#2026';

export const DEMO_COMPANIES = {
  superAdmin: { id: 1, name: 'Platform Administration' },
  demo: { id: 2, name: 'Demo Agrar GmbH' },
  other: { id: 3, name: 'Other Company AG' },
  waterAssociation: { id: 4, name: 'Wasserverband Dreisamtal' },
} as const;

export interface DemoLogin {
  email: string;
  name: string;
  companyId: number;
  roles: string[];
  /** What the README and the start banner say this login is for. */
  role: string;
}

export const DEMO_LOGINS: DemoLogin[] = [
  {
    email: 'admin@demo.test',
    name: 'Sam Super',
    companyId: DEMO_COMPANIES.superAdmin.id,
    roles: ['ROLE_ADMIN', 'ROLE_MAINUSER'],
    role: 'super admin',
  },
  {
    email: 'main@demo.test',
    name: 'Mia Main',
    companyId: DEMO_COMPANIES.demo.id,
    roles: ['ROLE_MAINUSER'],
    role: 'main user, demo client',
  },
  {
    email: 'ops@demo.test',
    name: 'Alex Admin',
    companyId: DEMO_COMPANIES.demo.id,
    roles: ['ROLE_ADMIN'],
    role: 'admin, demo client',
  },
  {
    email: 'user@demo.test',
    name: 'Uli User',
    companyId: DEMO_COMPANIES.demo.id,
    roles: [],
    role: 'plain user, demo client',
  },
  {
    email: 'main@other.test',
    name: 'Otto Other',
    companyId: DEMO_COMPANIES.other.id,
    roles: ['ROLE_MAINUSER'],
    role: 'main user, second company',
  },
  {
    email: 'main@water.test',
    name: 'Wanda Water',
    companyId: DEMO_COMPANIES.waterAssociation.id,
    roles: ['ROLE_MAINUSER'],
    role: 'main user, water association',
  },
];
