/**
 * Rows of the authorization matrix for water associations (issue #26), against their own cast: the
 * association's main and plain user, an admin member's main user, a plain member's main user, an outsider
 * with the module, and the super admin (test/water-fixtures.ts).
 */
import type { WaterWorld as World } from '../test/water-fixtures';

/** The matrix's world: the water world with the member's valve shared with control (addControlValve). */
export type WaterWorld = World & { valve: { id: number; uuid: string } };

import { type Expected, NOT_LOGGED_IN, OK } from './matrix-world';

export type WaterActor =
  | 'anonymous'
  | 'nwaMain'
  | 'nwaPlain'
  | 'adminMember'
  | 'member'
  | 'outsider'
  | 'superAdmin';
export const WATER_ACTORS: WaterActor[] = [
  'anonymous',
  'nwaMain',
  'nwaPlain',
  'adminMember',
  'member',
  'outsider',
  'superAdmin',
];

const NO_WATER_MANAGE = [403, 90050] as const;
const NWA_NOT_FOUND = [404, 90051] as const;
const NOT_A_MEMBER = [404, 90052] as const;
const NO_SHARING = [403, 90056] as const;
const ALREADY = [409, 90054] as const;
const SHARE_NOT_FOUND = [404, 90055] as const;
const DEVICE_NOT_FOUND = [404, 10] as const;
const READ_ONLY = [403, 90057] as const;
const NOT_A_WATER_COMMAND = [403, 90058] as const;
const NOT_MANAGER = [403, 90003] as const;
const closeValve = () => ({ command: 'switch_solenoid_valve', params: { valve: 1, on: false } });

export interface WaterRow {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: (w: WaterWorld) => string;
  body?: (w: WaterWorld) => unknown;
  /** Expected answer per actor, in the order of WATER_ACTORS. */
  expect: [Expected, Expected, Expected, Expected, Expected, Expected, Expected];
}

const nwa = (w: WaterWorld) => `/api/v1/nwa/${w.nwa.company.id}`;

//                  anonymous      nwaMain  nwaPlain         adminMember      member           outsider        superAdmin
export const WATER_ROWS: WaterRow[] = [
  { method: 'GET', path: () => '/api/v1/nwa', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/nwa/directory', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK, OK] },
  { method: 'GET', path: nwa, expect: [NOT_LOGGED_IN, OK, OK, OK, OK, NWA_NOT_FOUND, OK] },
  {
    method: 'PUT',
    path: nwa,
    body: () => ({ max_flow_per_hour: 30 }),
    expect: [NOT_LOGGED_IN, OK, NO_WATER_MANAGE, OK, NO_WATER_MANAGE, NWA_NOT_FOUND, OK],
  },
  {
    method: 'DELETE',
    path: (w) => `${nwa(w)}/members/${w.member.company.id}`,
    // The member's own main user may leave.
    expect: [NOT_LOGGED_IN, OK, NO_WATER_MANAGE, OK, OK, NWA_NOT_FOUND, OK],
  },
  {
    method: 'DELETE',
    path: (w) => `${nwa(w)}/members/${w.adminMember.company.id}`,
    expect: [NOT_LOGGED_IN, OK, NO_WATER_MANAGE, OK, NO_WATER_MANAGE, NWA_NOT_FOUND, OK],
  },
  {
    method: 'PUT',
    path: (w) => `${nwa(w)}/members/${w.member.company.id}/set_admin`,
    expect: [NOT_LOGGED_IN, OK, NO_WATER_MANAGE, OK, NO_WATER_MANAGE, NWA_NOT_FOUND, OK],
  },
  {
    method: 'GET',
    path: (w) => `${nwa(w)}/membership-requests`,
    expect: [NOT_LOGGED_IN, OK, NO_WATER_MANAGE, OK, NO_WATER_MANAGE, NWA_NOT_FOUND, OK],
  },
  {
    method: 'POST',
    path: (w) => `${nwa(w)}/membership-requests`,
    expect: [NOT_LOGGED_IN, NWA_NOT_FOUND, NO_WATER_MANAGE, ALREADY, ALREADY, OK, NO_WATER_MANAGE],
  },
  {
    method: 'POST',
    path: (w) => `${nwa(w)}/request-membership/${w.requester.company.id}`,
    expect: [NOT_LOGGED_IN, OK, NO_WATER_MANAGE, OK, NO_WATER_MANAGE, NWA_NOT_FOUND, OK],
  },
  {
    method: 'DELETE',
    path: (w) => `${nwa(w)}/request-membership/${w.requester.company.id}`,
    expect: [NOT_LOGGED_IN, OK, NO_WATER_MANAGE, OK, NO_WATER_MANAGE, NWA_NOT_FOUND, OK],
  },
  {
    method: 'GET',
    path: (w) => `${nwa(w)}/shared-devices`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, NWA_NOT_FOUND, OK],
  },
  {
    method: 'POST',
    path: (w) => `${nwa(w)}/shared-devices`,
    body: (w) => ({ device_id: w.adminMeter.id }),
    // Only the admin member owns that device; the association shares nothing with itself.
    expect: [NOT_LOGGED_IN, NOT_A_MEMBER, NO_SHARING, OK, DEVICE_NOT_FOUND, NWA_NOT_FOUND, NO_SHARING],
  },
  {
    method: 'PUT',
    path: (w) => `${nwa(w)}/shared-devices/${w.meter.id}`,
    body: () => ({ meter_factor: 2 }),
    expect: [NOT_LOGGED_IN, OK, NO_WATER_MANAGE, OK, NO_WATER_MANAGE, NWA_NOT_FOUND, OK],
  },
  {
    method: 'DELETE',
    path: (w) => `${nwa(w)}/shared-devices/${w.meter.id}`,
    // Only the owner takes a share back.
    expect: [NOT_LOGGED_IN, SHARE_NOT_FOUND, NO_SHARING, SHARE_NOT_FOUND, OK, NWA_NOT_FOUND, NO_SHARING],
  },
  {
    method: 'GET',
    path: (w) => `${nwa(w)}/shared-devices/${w.meter.id}/history`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, NWA_NOT_FOUND, OK],
  },
  {
    method: 'GET',
    path: (w) => `${nwa(w)}/shared-devices/${w.adminMeter.id}/history`,
    // Not shared: nobody reads it through the association.
    expect: [
      NOT_LOGGED_IN,
      SHARE_NOT_FOUND,
      SHARE_NOT_FOUND,
      SHARE_NOT_FOUND,
      SHARE_NOT_FOUND,
      NWA_NOT_FOUND,
      SHARE_NOT_FOUND,
    ],
  },
  {
    method: 'GET',
    path: (w) => `${nwa(w)}/usage`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, NWA_NOT_FOUND, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/nwa/devices/${w.meter.id}/shares`,
    expect: [
      NOT_LOGGED_IN,
      DEVICE_NOT_FOUND,
      DEVICE_NOT_FOUND,
      DEVICE_NOT_FOUND,
      OK,
      DEVICE_NOT_FOUND,
      DEVICE_NOT_FOUND,
    ],
  },
  // What the share must not open: the owner’s other device, the shared device itself (with its rules) in
  // the owner’s device API, its data, logs and notifications, and its users.
  ...[
    (w: WaterWorld) => `/api/v1/core/devices/${w.privateDevice.id}`,
    (w: WaterWorld) => `/api/v1/core/devices/${w.meter.id}`,
    (w: WaterWorld) => `/api/v1/core/data/${w.meter.id}`,
    (w: WaterWorld) => `/api/v1/core/devices/${w.meter.id}/logs`,
    (w: WaterWorld) => `/api/v1/core/devices/${w.meter.id}/notifications`,
  ].map(
    (path): WaterRow => ({
      method: 'GET',
      path,
      expect: [
        NOT_LOGGED_IN,
        DEVICE_NOT_FOUND,
        DEVICE_NOT_FOUND,
        DEVICE_NOT_FOUND,
        OK,
        DEVICE_NOT_FOUND,
        DEVICE_NOT_FOUND,
      ],
    }),
  ),
  // A share with control lets the association and its admins switch the valve, and nothing more: no other
  // command, not through a read-only share, not through the owner's own device routes.
  {
    method: 'POST',
    path: (w) => `${nwa(w)}/shared-devices/${w.valve.id}/downlink`,
    body: closeValve,
    expect: [NOT_LOGGED_IN, OK, NO_WATER_MANAGE, OK, NO_WATER_MANAGE, NWA_NOT_FOUND, OK],
  },
  {
    method: 'POST',
    path: (w) => `${nwa(w)}/shared-devices/${w.valve.id}/downlink`,
    body: () => ({ command: 'reboot' }),
    expect: [
      NOT_LOGGED_IN,
      NOT_A_WATER_COMMAND,
      NO_WATER_MANAGE,
      NOT_A_WATER_COMMAND,
      NO_WATER_MANAGE,
      NWA_NOT_FOUND,
      NOT_A_WATER_COMMAND,
    ],
  },
  {
    method: 'POST',
    path: (w) => `${nwa(w)}/shared-devices/${w.meter.id}/downlink`,
    body: closeValve,
    expect: [NOT_LOGGED_IN, READ_ONLY, NO_WATER_MANAGE, READ_ONLY, NO_WATER_MANAGE, NWA_NOT_FOUND, READ_ONLY],
  },
  {
    method: 'POST',
    path: (w) => `${nwa(w)}/shared-devices/${w.adminMeter.id}/downlink`,
    body: closeValve,
    expect: [
      NOT_LOGGED_IN,
      SHARE_NOT_FOUND,
      NO_WATER_MANAGE,
      SHARE_NOT_FOUND,
      NO_WATER_MANAGE,
      NWA_NOT_FOUND,
      SHARE_NOT_FOUND,
    ],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/core/devices/${w.valve.id}/downlink`,
    body: closeValve,
    // The owner's own route: its main user only; the share opens nothing here.
    expect: [
      NOT_LOGGED_IN,
      DEVICE_NOT_FOUND,
      NOT_MANAGER,
      DEVICE_NOT_FOUND,
      OK,
      DEVICE_NOT_FOUND,
      DEVICE_NOT_FOUND,
    ],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/${w.valve.id}/downlinks`,
    expect: [
      NOT_LOGGED_IN,
      DEVICE_NOT_FOUND,
      DEVICE_NOT_FOUND,
      DEVICE_NOT_FOUND,
      OK,
      DEVICE_NOT_FOUND,
      DEVICE_NOT_FOUND,
    ],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/users/${w.member.main.id}`,
    expect: [NOT_LOGGED_IN, [404, 62], [404, 62], [404, 62], OK, [404, 62], [404, 62]],
  },
];
