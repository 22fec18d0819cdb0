/** /api/v1/core/users: the acting company's users (spec sections 6, 7). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateUserBody,
  IdParams,
  responses,
  SetAdminBody,
  UpdateUserBody,
  UserPayload,
} from '@iot/contracts';
import { findUserById, listUsers, withTenant } from '@iot/db';
import { Type } from 'typebox';
import { apiError } from '../../../../../lib/errors';
import { authOf } from '../../../../../plugins/guards';
import {
  createUser,
  deleteUserAsActor,
  setUserAdmin,
  updateUserAsActor,
} from '../../../../../services/manage-users';
import { requestPasswordReset } from '../../../../../services/request-password-reset';
import { presentUser } from './present';

function toInput(body: {
  email?: string;
  name?: string;
  locale?: string;
  roles?: string[];
  phone?: string | null;
  password?: string;
  password_confirmation?: string;
  require_password_reset?: boolean;
}) {
  return {
    ...(body.email === undefined ? {} : { email: body.email }),
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.locale === undefined ? {} : { locale: body.locale }),
    ...(body.roles === undefined ? {} : { roles: body.roles }),
    ...(body.phone === undefined ? {} : { phone: body.phone }),
    ...(body.password === undefined ? {} : { password: body.password }),
    ...(body.password_confirmation === undefined ? {} : { passwordConfirmation: body.password_confirmation }),
    ...(body.require_password_reset === undefined
      ? {}
      : { requirePasswordReset: body.require_password_reset }),
  };
}

const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { deps } = app;
  const { db } = deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['users'],
        operationId: 'listUsers',
        summary: "The acting company's users",
        response: responses(Type.Array(UserPayload)),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const users = await withTenant(db, auth.companyId, (tx) => listUsers(tx, auth.companyId));
      return { payload: users.map(presentUser) };
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['users'],
        operationId: 'createUser',
        summary: 'Create a user (ROLE_MAINUSER or ROLE_ADMIN; 64, 73, 54)',
        body: CreateUserBody,
        response: responses(UserPayload, [64, 73, 54, 422, 77]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { user, invited } = await createUser(db, auth, {
        ...toInput(request.body),
        email: request.body.email,
        name: request.body.name,
      });
      if (invited) {
        try {
          await requestPasswordReset(deps, user.email);
        } catch (err) {
          request.log.error({ err, userId: user.id }, 'invitation mail failed');
        }
      }
      return { payload: presentUser(user) };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['users'],
        operationId: 'getUser',
        summary: "One of the acting company's users (another company's id: 62)",
        params: IdParams,
        response: responses(UserPayload, [62, 422]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const user = await withTenant(db, auth.companyId, (tx) =>
        findUserById(tx, auth.companyId, request.params.id),
      );
      if (!user) throw apiError('USER_NOT_FOUND');
      return { payload: presentUser(user) };
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['users'],
        operationId: 'updateUser',
        summary: 'Update a user; a plain user may edit only their own profile (64, 73, 54, 62)',
        params: IdParams,
        body: UpdateUserBody,
        response: responses(UserPayload, [64, 73, 54, 62, 422, 77]),
      },
    },
    async (request) => {
      const user = await updateUserAsActor(db, authOf(request), request.params.id, toInput(request.body));
      return { payload: presentUser(user) };
    },
  );

  app.put(
    '/:id/admin',
    {
      schema: {
        tags: ['users'],
        operationId: 'setUserAdmin',
        summary: 'Grant or withdraw ROLE_ADMIN (64, 54, 62)',
        params: IdParams,
        body: SetAdminBody,
        response: responses(UserPayload, [64, 54, 62, 422, 77]),
      },
    },
    async (request) => {
      const user = await setUserAdmin(db, authOf(request), request.params.id, request.body.admin);
      return { payload: presentUser(user) };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['users'],
        operationId: 'deleteUser',
        summary: 'Delete a user (64, 54, 50103 for oneself, 62)',
        params: IdParams,
        response: responses(Type.Object({ id: Type.Integer() }), [64, 54, 50103, 62, 422, 77]),
      },
    },
    async (request) => {
      await deleteUserAsActor(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );
};

export default usersRoutes;
