/**
 * Rows of the authorization matrix for the farming module (issue 24). The farming world licenses both
 * companies for `farming` and gives the home company a field and a free parcel; the super admin acts for
 * company 1, so the home rows are absent for it as for the other company (20001 / 20140).
 */
import { type Expected, NOT_LOGGED_IN, OK } from './matrix-world';

export interface FarmingWorld {
  homeFieldId: number;
  homeParcelId: number;
  homeDeviceId: number;
  homeTaskId: number;
  /** The home company's own soil and plant (rows of its catalogues). */
  homeSoilId: number;
  homePlantId: number;
}

export interface FarmingRow {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: (w: FarmingWorld) => string;
  body?: (w: FarmingWorld) => unknown;
  expect: [Expected, Expected, Expected, Expected, Expected, Expected];
}

export const FARMING_PLACEHOLDERS: FarmingWorld = {
  homeFieldId: ':home-field',
  homeParcelId: ':home-parcel',
  homeDeviceId: ':home-device',
  homeTaskId: ':home-task',
  homeSoilId: ':home-soil',
  homePlantId: ':home-plant',
} as unknown as FarmingWorld;

const NO_FIELDS = [403, 20009] as const;
const NO_PARCELS = [403, 20102] as const;
const FIELD_NOT_FOUND = [404, 20001] as const;
const PARCEL_NOT_FOUND = [404, 20140] as const;
const TASK_NOT_FOUND = [404, 20061] as const;
const CATALOGUE_NOT_FOUND = { soils: [404, 20021], plants: [404, 20041] } as const;

const parcelBody = () => ({ parcel_id: '9', registration_number: 'DEBWLI0883800011', size_m2: 10 });

//                         anonymous      plain          main           admin          superAdmin        otherMain
export const FARMING_ROWS: FarmingRow[] = [
  {
    method: 'GET',
    path: () => '/api/v1/core/weather/?lat=48.04&lng=7.57',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  { method: 'GET', path: () => '/api/v1/farming/fields', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/farming/fields',
    body: () => ({ name: 'Matrix field' }),
    expect: [NOT_LOGGED_IN, NO_FIELDS, OK, OK, OK, OK],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/farming/fields/${w.homeFieldId}`,
    body: () => ({ name: 'Renamed' }),
    expect: [NOT_LOGGED_IN, NO_FIELDS, OK, OK, FIELD_NOT_FOUND, FIELD_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/farming/fields/${w.homeFieldId}`,
    expect: [NOT_LOGGED_IN, NO_FIELDS, OK, OK, FIELD_NOT_FOUND, FIELD_NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/farming/fields/devices',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/farming/fields/devices?field_id=${w.homeFieldId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, FIELD_NOT_FOUND, FIELD_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/farming/fields/${w.homeFieldId}/assign/devices`,
    body: (w) => ({ field_id: w.homeFieldId, device_ids: [w.homeDeviceId] }),
    expect: [NOT_LOGGED_IN, NO_FIELDS, OK, OK, FIELD_NOT_FOUND, FIELD_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/farming/fields/${w.homeFieldId}/assign/parcels`,
    body: (w) => ({ field_id: w.homeFieldId, parcels: [w.homeParcelId] }),
    expect: [NOT_LOGGED_IN, NO_FIELDS, OK, OK, FIELD_NOT_FOUND, FIELD_NOT_FOUND],
  },
  { method: 'GET', path: () => '/api/v1/farming/parcels', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/farming/parcels',
    body: parcelBody,
    expect: [NOT_LOGGED_IN, NO_PARCELS, OK, OK, OK, OK],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/farming/parcels/${w.homeParcelId}`,
    body: () => ({ size_m2: 20 }),
    expect: [NOT_LOGGED_IN, NO_PARCELS, OK, OK, PARCEL_NOT_FOUND, PARCEL_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/farming/parcels/${w.homeParcelId}`,
    expect: [NOT_LOGGED_IN, NO_PARCELS, OK, OK, PARCEL_NOT_FOUND, PARCEL_NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/farming/tasks?view=mine',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'POST',
    path: () => '/api/v1/farming/tasks',
    body: () => ({ title: 'Matrix task', type: 'harvest' }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/farming/tasks/${w.homeTaskId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, TASK_NOT_FOUND, TASK_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/farming/tasks/${w.homeTaskId}`,
    body: () => ({ status: 'in_progress' }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, TASK_NOT_FOUND, TASK_NOT_FOUND],
  },
  ...(['soils', 'plants'] as const).flatMap((kind): FarmingRow[] => [
    { method: 'GET', path: () => `/api/v1/farming/${kind}`, expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
    {
      method: 'POST',
      path: () => `/api/v1/farming/${kind}`,
      body: () => ({ code: 'own', name_de: 'Eigen', name_en: 'Own' }),
      expect: [NOT_LOGGED_IN, NO_FIELDS, OK, OK, OK, OK],
    },
    {
      method: 'PUT',
      path: (w) => `/api/v1/farming/${kind}/${kind === 'soils' ? w.homeSoilId : w.homePlantId}`,
      body: () => ({ name_de: 'Umbenannt', name_en: 'Renamed' }),
      expect: [NOT_LOGGED_IN, NO_FIELDS, OK, OK, CATALOGUE_NOT_FOUND[kind], CATALOGUE_NOT_FOUND[kind]],
    },
    {
      method: 'DELETE',
      path: (w) => `/api/v1/farming/${kind}/${kind === 'soils' ? w.homeSoilId : w.homePlantId}`,
      expect: [NOT_LOGGED_IN, NO_FIELDS, OK, OK, CATALOGUE_NOT_FOUND[kind], CATALOGUE_NOT_FOUND[kind]],
    },
  ]),
];
