/**
 * Virtual data fields (spec sections 3, 7, 8: 84-91), registered under /core/devices:
 * POST /virtual_data_fields (formula preview), GET/POST /{id}/virtual_data_fields,
 * PUT/DELETE /{id}/virtual_data_fields/{fieldId}.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  FieldParams,
  IdParams,
  PreviewBody,
  PreviewPayload,
  responses,
  VirtualFieldBody,
  VirtualFieldPayload,
} from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import {
  changeVirtualField,
  createVirtualField,
  listFieldsOfDevice,
  presentVirtualField,
  previewVirtualField,
  removeVirtualField,
} from '../../../../../services/virtual-fields';

const virtualFieldsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.post(
    '/virtual_data_fields',
    {
      schema: {
        tags: ['virtual data fields'],
        operationId: 'previewVirtualField',
        summary: 'Check a formula against sample data fields and compute it once (88, 89, 90, 91, 10, 84)',
        body: PreviewBody,
        response: responses(PreviewPayload, [88, 89, 90, 91, 10, 84, 422, 77]),
      },
    },
    async (request) => ({ payload: await previewVirtualField(db, authOf(request), request.body) }),
  );

  app.get(
    '/:id/virtual_data_fields',
    {
      schema: {
        tags: ['virtual data fields'],
        operationId: 'listVirtualFields',
        summary: "The device's virtual data fields (10)",
        params: IdParams,
        response: responses(Type.Array(VirtualFieldPayload), [10, 422]),
      },
    },
    async (request) => {
      const fields = await listFieldsOfDevice(db, authOf(request), request.params.id);
      return { payload: fields.map(presentVirtualField) };
    },
  );

  app.post(
    '/:id/virtual_data_fields',
    {
      schema: {
        tags: ['virtual data fields'],
        operationId: 'createVirtualField',
        summary: 'Add a virtual data field (ROLE_ADMIN, ROLE_MAINUSER; 90004, 10, 85, 88-91)',
        params: IdParams,
        body: VirtualFieldBody,
        response: responses(VirtualFieldPayload, [90004, 10, 85, 88, 89, 90, 91, 422, 77]),
      },
    },
    async (request) => {
      const field = await createVirtualField(db, authOf(request), request.params.id, request.body);
      return { payload: presentVirtualField(field) };
    },
  );

  app.put(
    '/:id/virtual_data_fields/:fieldId',
    {
      schema: {
        tags: ['virtual data fields'],
        operationId: 'updateVirtualField',
        summary: 'Change a virtual data field; omitted keys stay (90004, 10, 84, 86, 88-91)',
        params: FieldParams,
        body: VirtualFieldBody,
        response: responses(VirtualFieldPayload, [90004, 10, 84, 86, 88, 89, 90, 91, 422, 77]),
      },
    },
    async (request) => {
      const { id, fieldId } = request.params;
      const field = await changeVirtualField(db, authOf(request), id, fieldId, request.body);
      return { payload: presentVirtualField(field) };
    },
  );

  app.delete(
    '/:id/virtual_data_fields/:fieldId',
    {
      schema: {
        tags: ['virtual data fields'],
        operationId: 'deleteVirtualField',
        summary: 'Delete a virtual data field (90004, 10, 84, 87)',
        params: FieldParams,
        response: responses(Type.Object({ id: Type.Integer() }), [90004, 10, 84, 87, 422, 77]),
      },
    },
    async (request) => {
      const { id, fieldId } = request.params;
      await removeVirtualField(db, authOf(request), id, fieldId);
      return { payload: { id: fieldId } };
    },
  );
};

export default virtualFieldsRoutes;
