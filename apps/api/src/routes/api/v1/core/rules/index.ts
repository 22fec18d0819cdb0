/**
 * DELETE /core/devices/{device_id}/rules/{rule_id} (registered under /core/devices). Rules are created and
 * changed through PUT /core/devices/{id} with a `rules` array (devices/index.ts, services/prepare-device-rules.ts, save-device-rules.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RuleParams, responses } from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import { deleteDeviceRule } from '../../../../../services/delete-device-rule';

const rulesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.delete(
    '/:device_id/rules/:rule_id',
    {
      schema: {
        tags: ['rules'],
        operationId: 'deleteRule',
        summary: 'Delete a rule with its actions (ROLE_ADMIN, ROLE_MAINUSER; 90004, 10, 50, 83)',
        params: RuleParams,
        response: responses(Type.Object({ id: Type.Integer() }), [90004, 10, 50, 83, 422, 77]),
      },
    },
    async (request) => {
      const { device_id, rule_id } = request.params;
      await deleteDeviceRule(db, authOf(request), device_id, rule_id);
      return { payload: { id: rule_id } };
    },
  );
};

export default rulesRoutes;
