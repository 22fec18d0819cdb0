/**
 * /api/v1/core/groups: the acting company's device groups (spec sections 3, 6, 7). Everyone in the
 * company reads; ROLE_ADMIN and ROLE_MAINUSER add, edit and delete (90005). Another company's group is 46.
 * The console reloads the device list after a change (devices carry group_id).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateGroupBody,
  DeletedPayload,
  GroupPayload,
  IdParams,
  responses,
  UpdateGroupBody,
} from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import {
  createGroup,
  deleteCompanyGroup,
  getCompanyGroup,
  listCompanyGroups,
  updateCompanyGroup,
} from '../../../../../services/manage-groups';
import { presentGroup } from './present';

const groupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['groups'],
        operationId: 'listGroups',
        summary: "The company's groups with their device ids, sorted by name",
        response: responses(Type.Array(GroupPayload)),
      },
    },
    async (request) => ({ payload: (await listCompanyGroups(db, authOf(request))).map(presentGroup) }),
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['groups'],
        operationId: 'createGroup',
        summary:
          'Add a group, optionally with its devices (90005, 422, 49 name taken, 51 device not the company’s)',
        body: CreateGroupBody,
        response: responses(GroupPayload, [90005, 422, 49, 51, 77]),
      },
    },
    async (request) => {
      const { name, description, device_ids } = request.body;
      const group = await createGroup(db, authOf(request), {
        name: name ?? '',
        ...(description === undefined ? {} : { description }),
        ...(device_ids === undefined ? {} : { device_ids }),
      });
      return { payload: presentGroup(group) };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['groups'],
        operationId: 'getGroup',
        summary: 'One group with its device ids (46)',
        params: IdParams,
        response: responses(GroupPayload, [46, 422]),
      },
    },
    async (request) => ({
      payload: presentGroup(await getCompanyGroup(db, authOf(request), request.params.id)),
    }),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['groups'],
        operationId: 'updateGroup',
        summary: 'Edit a group; device_ids replaces its devices (90005, 46, 422, 49, 51)',
        params: IdParams,
        body: UpdateGroupBody,
        response: responses(GroupPayload, [90005, 46, 422, 49, 51, 77]),
      },
    },
    async (request) => {
      const { name, description, device_ids } = request.body;
      const group = await updateCompanyGroup(db, authOf(request), request.params.id, {
        ...(name === undefined ? {} : { name: name ?? '' }),
        ...(description === undefined ? {} : { description }),
        ...(device_ids === undefined ? {} : { device_ids }),
      });
      return { payload: presentGroup(group) };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['groups'],
        operationId: 'deleteGroup',
        summary: 'Delete a group; its devices stay, without a group (90005, 46)',
        params: IdParams,
        response: responses(DeletedPayload, [90005, 46, 422, 77]),
      },
    },
    async (request) => {
      await deleteCompanyGroup(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );
};

export default groupsRoutes;
