/**
 * Rows of the authorization matrix for the company's data: devices and their rules, virtual fields, sensor
 * checks and commands, integrations, groups, dashboards, alarms and messages.
 */
import {
  DASHBOARD_NOT_FOUND,
  DEVICE_NOT_FOUND,
  DOWNLINK_NOT_SUPPORTED,
  GROUP_NOT_FOUND,
  NO_COMMANDS,
  NO_DASHBOARDS,
  NO_DEVICE_EDIT,
  NO_GROUPS,
  NO_INTEGRATIONS,
  NO_ROUTE,
  NO_RULES,
  NOT_FOUND,
  NOT_LOGGED_IN,
  OK,
  type Row,
} from './matrix-world';

//                         anonymous      plain          main           admin          superAdmin     otherMain
export const DATA_ROWS: Row[] = [
  { method: 'GET', path: () => '/api/v1/core/devices', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}`,
    body: () => ({ name: 'Renamed device', state: 'maintenance' }),
    expect: [NOT_LOGGED_IN, NO_DEVICE_EDIT, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/metadata`,
    body: () => ({ data_fields: [{ data_field: 'temperature', label: 'Temperature', sort: 1 }] }),
    expect: [NOT_LOGGED_IN, NO_DEVICE_EDIT, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/credentials`,
    expect: [NOT_LOGGED_IN, NO_DEVICE_EDIT, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  ...['logs', 'notifications', 'battery', 'mobile-data'].map(
    (sub): Row => ({
      method: 'GET',
      path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/${sub}`,
      expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
    }),
  ),
  {
    method: 'GET',
    path: (w) => `/api/v1/core/data/${w.homeDeviceId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/data/${w.homeDeviceId}/current`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/integrations/tokens',
    expect: [NOT_LOGGED_IN, NO_INTEGRATIONS, OK, OK, OK, OK],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/integrations/tokens',
    body: () => ({ kind: 'chirpstack', name: 'Matrix LNS' }),
    expect: [NOT_LOGGED_IN, NO_INTEGRATIONS, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/integrations/network-server',
    expect: [NOT_LOGGED_IN, NO_INTEGRATIONS, OK, OK, OK, OK],
  },
  {
    method: 'PUT',
    path: () => '/api/v1/core/integrations/network-server',
    body: () => ({ kind: 'chirpstack', api_url: 'https://chirpstack.matrix.test', api_token: 'matrix' }),
    expect: [NOT_LOGGED_IN, NO_INTEGRATIONS, OK, OK, OK, OK],
  },
  {
    method: 'DELETE',
    path: () => '/api/v1/core/integrations/network-server',
    expect: [NOT_LOGGED_IN, NO_INTEGRATIONS, OK, OK, OK, OK],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/integrations/tokens/${w.homeTokenId}`,
    expect: [NOT_LOGGED_IN, NO_INTEGRATIONS, OK, OK, NOT_FOUND, NOT_FOUND],
  },
  { method: 'GET', path: () => '/api/v1/core/groups', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/core/groups',
    body: () => ({ name: 'Matrix group' }),
    expect: [NOT_LOGGED_IN, NO_GROUPS, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/groups/${w.homeGroupId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, GROUP_NOT_FOUND, GROUP_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/groups/${w.homeGroupId}`,
    body: () => ({ name: 'Renamed group', device_ids: [] }),
    expect: [NOT_LOGGED_IN, NO_GROUPS, OK, OK, GROUP_NOT_FOUND, GROUP_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/groups/${w.homeGroupId}`,
    expect: [NOT_LOGGED_IN, NO_GROUPS, OK, OK, GROUP_NOT_FOUND, GROUP_NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/company/dashboards',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/company/dashboards',
    body: () => ({ name: 'Matrix dashboard', widgets: [] }),
    expect: [NOT_LOGGED_IN, NO_DASHBOARDS, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/company/dashboards/${w.homeDashboardId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DASHBOARD_NOT_FOUND, DASHBOARD_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/company/dashboards/${w.homeDashboardId}`,
    body: () => ({ name: 'Renamed dashboard', widgets: [] }),
    expect: [NOT_LOGGED_IN, NO_DASHBOARDS, OK, OK, DASHBOARD_NOT_FOUND, DASHBOARD_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/company/dashboards/${w.homeDashboardId}`,
    expect: [NOT_LOGGED_IN, NO_DASHBOARDS, OK, OK, DASHBOARD_NOT_FOUND, DASHBOARD_NOT_FOUND],
  },
  // Many ids in one read: another company's ids come back under `missing`, never their values.
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/current?ids=${w.homeDeviceId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/devices/positions',
    // The map view module's (issue #27): the home company holds it, the other company not.
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, [403, 27]],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/devices/alarms',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/alarms/${w.homeAlarmId}/acknowledge`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, NOT_FOUND, NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}`,
    body: () => ({ rules: [{ trigger: 'no_data', time_window_seconds: 600 }] }),
    expect: [NOT_LOGGED_IN, NO_RULES, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/rules/${w.homeRuleId}`,
    expect: [NOT_LOGGED_IN, NO_RULES, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/devices/virtual_data_fields',
    body: () => ({ formula: 'temperature * 2', data_fields: { temperature: 1 } }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/virtual_data_fields`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/virtual_data_fields`,
    body: () => ({ name: 'Events', function: 'count_up_daily' }),
    expect: [NOT_LOGGED_IN, NO_RULES, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/virtual_data_fields/${w.homeFieldId}`,
    body: () => ({ unit: 'x' }),
    expect: [NOT_LOGGED_IN, NO_RULES, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/virtual_data_fields/${w.homeFieldId}`,
    expect: [NOT_LOGGED_IN, NO_RULES, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/devices/sensor_checks',
    body: () => ({ data_fields: ['temperature'] }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/sensor_checks`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/sensor_checks`,
    body: () => ({ kind: 'battery_low', level: 15 }),
    expect: [NOT_LOGGED_IN, NO_RULES, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/sensor_checks/${w.homeCheckId}`,
    body: () => ({ kind: 'no_data', max_silence_seconds: 120 }),
    expect: [NOT_LOGGED_IN, NO_RULES, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/sensor_checks/${w.homeCheckId}`,
    expect: [NOT_LOGGED_IN, NO_RULES, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    // The matrix device has no driver: managers pass authorization and meet the domain's 93.
    method: 'POST',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/downlink`,
    body: () => ({ command: 'reboot' }),
    expect: [
      NOT_LOGGED_IN,
      NO_COMMANDS,
      DOWNLINK_NOT_SUPPORTED,
      DOWNLINK_NOT_SUPPORTED,
      DEVICE_NOT_FOUND,
      DEVICE_NOT_FOUND,
    ],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/devices/${w.homeDeviceId}/downlinks`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/messages?show_read=1',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/messages/${w.homeMessageId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, NOT_FOUND, NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/messages/${w.homeMessageId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, NOT_FOUND, NOT_FOUND],
  },
  {
    method: 'GET',
    path: () => '/api/v1/no/such/route',
    expect: [NO_ROUTE, NO_ROUTE, NO_ROUTE, NO_ROUTE, NO_ROUTE, NO_ROUTE],
  },
];
