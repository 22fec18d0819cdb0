/**
 * /api/v1/core/devices: the acting company's devices (spec sections 3, 6, 7). Every route is scoped to
 * the acting company: another company's device id is "not found" (10), never its data.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BatteryQuery,
  CredentialsPayload,
  DeviceListItem,
  DeviceListQuery,
  DeviceMapColumns,
  DevicePayload,
  IdParams,
  LogEntry,
  LogsQuery,
  MetadataBody,
  MetadataPayload,
  MobileDataPayload,
  MobileDataQuery,
  NotificationEntry,
  NotificationsQuery,
  responses,
  SeriesPayload,
  UpdateDeviceBody,
} from '@iot/contracts';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { sendKeptAnswer } from '../../../../../lib/answer-cache';
import { apiError } from '../../../../../lib/errors';
import { authOf, requireModule } from '../../../../../plugins/guards';
import { parsePeriod } from '../../../../../services/device-period';
import { getDevice } from '../../../../../services/get-device';
import { listLogsOfDevice } from '../../../../../services/list-device-logs';
import { listNotificationsOfDevice } from '../../../../../services/list-device-notifications';
import { listRulesOfDevice, presentRule } from '../../../../../services/list-device-rules';
import {
  listCompanyDevicePins,
  listCompanyDevicesJson,
  showsOnlyPins,
} from '../../../../../services/list-devices';
import { prepareDeviceRules } from '../../../../../services/prepare-device-rules';
import { readDeviceSeries } from '../../../../../services/read-device-data';
import { readMobileData } from '../../../../../services/read-mobile-data';
import { rotateDeviceCredentials } from '../../../../../services/rotate-device-credentials';
import { saveDeviceRules } from '../../../../../services/save-device-rules';
import { setDeviceMetadata } from '../../../../../services/set-device-metadata';
import { updateDeviceAsActor } from '../../../../../services/update-device';
import { presentDevice } from './present';

const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

const requireMapView = requireModule('map_view');

const devicesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, deviceListCache, deviceMapCache } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['devices'],
        operationId: 'listDevices',
        summary:
          "The acting company's devices with group and latest values, filtered and sorted (view=map: the map view module)",
        querystring: DeviceListQuery,
        response: responses(Type.Union([Type.Array(DeviceListItem), DeviceMapColumns]), [422, 27]),
      },
      // Both answers are JSON text the database wrote (listDevicesJson, listDevicePinColumnsJson), sent as
      // they are; the schema documents them. Each writes exactly its schema's fields, so nothing outside
      // the schema can leave. Errors go out through JSON.stringify as before.
      serializerCompiler: () => (data) => JSON.stringify(data),
      // Polled by every open console (device list, map widgets): identical reads in flight share.
      config: { coalesce: true },
    },
    async (request, reply) => {
      const auth = authOf(request);
      // The map's list (map page and map widgets) is the map view module's (issue #27).
      if (request.query.view === 'map') await requireMapView(request);
      // Every user of the acting company reads the same list for the same URL.
      // Pins by state are kept through a fleet's latest values; everything else goes with them.
      const cache = showsOnlyPins(request.query) ? deviceMapCache : deviceListCache;
      // (The typed reply accepts only the schema's objects; the kept text is that object, already written.)
      return sendKeptAnswer(
        cache,
        { company: auth.companyId, variant: request.url },
        request,
        reply as unknown as FastifyReply,
        async () => {
          const payload =
            request.query.view === 'map'
              ? await listCompanyDevicePins(db, auth, request.query)
              : await listCompanyDevicesJson(db, auth, request.query);
          return `{"payload":${payload}}`;
        },
      );
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['devices'],
        operationId: 'getDevice',
        summary: 'One device with details; credentials and integration info for admins and main users (10)',
        params: IdParams,
        response: responses(DevicePayload, [10, 422]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { device, restricted, virtual } = await getDevice(db, auth, request.params.id);
      const rules = await listRulesOfDevice(db, auth, request.params.id);
      return {
        payload: {
          ...presentDevice(device, restricted),
          ...(virtual ? { virtual } : {}),
          rules: rules.map(presentRule),
        },
      };
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['devices'],
        operationId: 'updateDevice',
        summary:
          'Edit a device and its rules, change its state, or (super admin, confirm: true) reassign it (90001; 90004 with rules; 90002 reassignment by a non-super-admin; 10, 26, 42, 46, 50, 78, 81, 82, 422)',
        params: IdParams,
        body: UpdateDeviceBody,
        response: responses(
          DevicePayload,
          [90001, 90002, 90004, 90011, 10, 26, 42, 46, 50, 78, 81, 82, 422, 77],
        ),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { rules: ruleInputs, ...body } = request.body;
      // A reassignment removes the device's rules (reassign-device.ts); rules come with a later edit.
      if (ruleInputs && body.company_id !== undefined && body.company_id !== auth.companyId)
        throw apiError('INPUT_ERROR', { fields: { rules: { key: 'error.unknown' } } });
      // Rules are checked before the device changes, so bad rules leave the device as it was.
      const rules = ruleInputs
        ? await prepareDeviceRules(
            db,
            auth,
            request.params.id,
            ruleInputs,
            app.deps.config.HTTP_ACTIONS_ALLOW_PRIVATE,
          )
        : [];
      await updateDeviceAsActor(db, auth, request.params.id, body);
      app.deps.onDeviceChanged(request.params.id);
      await saveDeviceRules(db, auth, request.params.id, rules);
      // After a reassignment the device is shown as its new company sees it (only the super admin gets here).
      const owner = body.company_id ?? auth.companyId;
      const viewer = { ...auth, companyId: owner };
      const { device, restricted } = await getDevice(db, viewer, request.params.id);
      const saved = await listRulesOfDevice(db, viewer, request.params.id);
      return { payload: { ...presentDevice(device, restricted), rules: saved.map(presentRule) } };
    },
  );

  app.put(
    '/:id/metadata',
    {
      schema: {
        tags: ['devices'],
        operationId: 'setDeviceMetadata',
        summary: 'Labels and order of the data fields, sort 1..99999 (90001, 10, 422)',
        params: IdParams,
        body: MetadataBody,
        response: responses(MetadataPayload, [90001, 10, 422, 77]),
      },
    },
    async (request) => {
      const entries = request.body.data_fields.map((e) => ({
        data_field: e.data_field ?? '',
        label: e.label ?? '',
        sort: e.sort ?? '',
      }));
      return { payload: await setDeviceMetadata(db, authOf(request), request.params.id, entries) };
    },
  );

  app.post(
    '/:id/credentials',
    {
      schema: {
        tags: ['devices'],
        operationId: 'rotateDeviceCredentials',
        summary: 'Issue a new device token, shown once (ROLE_ADMIN, ROLE_MAINUSER; 90001, 10)',
        params: IdParams,
        response: responses(CredentialsPayload, [90001, 10, 422, 77]),
      },
    },
    async (request) => {
      const token = await rotateDeviceCredentials(db, authOf(request), request.params.id);
      // The old token must stop working now, and the new one start working now.
      app.deps.onDeviceChanged(request.params.id);
      return { payload: { device_id: request.params.id, token } };
    },
  );

  app.get(
    '/:id/logs',
    {
      schema: {
        tags: ['devices'],
        operationId: 'listDeviceLogs',
        summary: 'Device log, newest first; level by name or number (10, 10002, 422)',
        params: IdParams,
        querystring: LogsQuery,
        response: responses(Type.Array(LogEntry), [10, 10002, 422]),
      },
    },
    async (request) => {
      const { query } = request;
      const period =
        query.tsstart === undefined && query.tsend === undefined ? undefined : parsePeriod(query);
      const logs = await listLogsOfDevice(db, authOf(request), request.params.id, {
        ...(query.level === undefined ? {} : { level: query.level }),
        ...(period ? { range: period } : {}),
        limit: query.limit ?? 100,
      });
      return { payload: logs };
    },
  );

  app.get(
    '/:id/notifications',
    {
      schema: {
        tags: ['devices'],
        operationId: 'listDeviceNotifications',
        summary:
          "What the device's rules sent: one entry per delivery attempt and recipient, newest first (10, 10002)",
        params: IdParams,
        querystring: NotificationsQuery,
        response: responses(Type.Array(NotificationEntry), [10, 10002, 422]),
      },
    },
    async (request) => {
      const { query } = request;
      const period =
        query.tsstart === undefined && query.tsend === undefined ? undefined : parsePeriod(query);
      const notifications = await listNotificationsOfDevice(db, authOf(request), request.params.id, {
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(period ? { range: period } : {}),
        limit: query.limit ?? 100,
      });
      return { payload: notifications };
    },
  );

  app.get(
    '/:id/battery',
    {
      schema: {
        tags: ['devices'],
        operationId: 'getDeviceBattery',
        summary: 'battery_level and battery_voltage history, downsampled like /core/data (10, 10002)',
        params: IdParams,
        querystring: BatteryQuery,
        response: responses(SeriesPayload, [10, 10002, 422]),
      },
    },
    async (request) => {
      const { query } = request;
      const payload = await readDeviceSeries(db, authOf(request), request.params.id, {
        fields: ['battery_level', 'battery_voltage'],
        range: parsePeriod(query, { defaultSpanMs: MONTH_MS }),
        closedBuckets: app.deps.closedBuckets,
        ...(query.max_points === undefined ? {} : { maxPoints: query.max_points }),
      });
      return { payload };
    },
  );

  app.get(
    '/:id/mobile-data',
    {
      schema: {
        tags: ['devices'],
        operationId: 'getDeviceMobileData',
        summary: 'Mobile data volume of the SIM and its history (data field mobile_data_volume) (10, 10002)',
        params: IdParams,
        querystring: MobileDataQuery,
        response: responses(MobileDataPayload, [10, 10002, 422]),
      },
    },
    async (request) => {
      const { query } = request;
      const payload = await readMobileData(db, authOf(request), request.params.id, {
        range: parsePeriod(query, { defaultSpanMs: MONTH_MS }),
        ...(query.max_points === undefined ? {} : { maxPoints: query.max_points }),
      });
      return { payload };
    },
  );
};

export default devicesRoutes;
