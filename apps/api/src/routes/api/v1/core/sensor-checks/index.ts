/**
 * Sensor checks, registered under /core/devices: POST /sensor_checks (the form's kinds and plausible bounds
 * for the given data fields), GET/POST /{id}/sensor_checks, PUT/DELETE /{id}/sensor_checks/{checkId}.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CheckParams,
  FormBody,
  FormPayload,
  IdParams,
  responses,
  SensorCheckBody,
  SensorCheckPayload,
} from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import {
  changeSensorCheck,
  createSensorCheck,
  listChecksOfDevice,
  presentSensorCheck,
  removeSensorCheck,
  sensorCheckForm,
} from '../../../../../services/sensor-checks';

const sensorChecksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.post(
    '/sensor_checks',
    {
      schema: {
        tags: ['sensor checks'],
        operationId: 'getSensorCheckForm',
        summary: 'Check kinds and the plausible bounds (spec section 5) of the given data fields',
        body: FormBody,
        response: responses(FormPayload, [422, 77]),
      },
    },
    async (request) => ({ payload: sensorCheckForm(request.body.data_fields) }),
  );

  app.get(
    '/:id/sensor_checks',
    {
      schema: {
        tags: ['sensor checks'],
        operationId: 'listSensorChecks',
        summary: "The device's sensor checks (10)",
        params: IdParams,
        response: responses(Type.Array(SensorCheckPayload), [10, 422]),
      },
    },
    async (request) => {
      const checks = await listChecksOfDevice(db, authOf(request), request.params.id);
      return { payload: checks.map(presentSensorCheck) };
    },
  );

  app.post(
    '/:id/sensor_checks',
    {
      schema: {
        tags: ['sensor checks'],
        operationId: 'createSensorCheck',
        summary: 'Add a sensor check (ROLE_ADMIN, ROLE_MAINUSER; 90004, 10, 70, 422)',
        params: IdParams,
        body: SensorCheckBody,
        response: responses(SensorCheckPayload, [90004, 10, 70, 422, 77]),
      },
    },
    async (request) => {
      const check = await createSensorCheck(db, authOf(request), request.params.id, request.body);
      return { payload: presentSensorCheck(check) };
    },
  );

  app.put(
    '/:id/sensor_checks/:checkId',
    {
      schema: {
        tags: ['sensor checks'],
        operationId: 'replaceSensorCheck',
        summary: 'Replace a sensor check (90004, 10, 404, 70, 422)',
        params: CheckParams,
        body: SensorCheckBody,
        response: responses(SensorCheckPayload, [90004, 10, 404, 70, 422, 77]),
      },
    },
    async (request) => {
      const { id, checkId } = request.params;
      const check = await changeSensorCheck(db, authOf(request), id, checkId, request.body);
      return { payload: presentSensorCheck(check) };
    },
  );

  app.delete(
    '/:id/sensor_checks/:checkId',
    {
      schema: {
        tags: ['sensor checks'],
        operationId: 'deleteSensorCheck',
        summary: 'Delete a sensor check (90004, 10, 404, 70)',
        params: CheckParams,
        response: responses(Type.Object({ id: Type.Integer() }), [90004, 10, 404, 70, 422, 77]),
      },
    },
    async (request) => {
      const { id, checkId } = request.params;
      await removeSensorCheck(db, authOf(request), id, checkId);
      return { payload: { id: checkId } };
    },
  );
};

export default sensorChecksRoutes;
