/**
 * POST /api/v1/core/devices/virtual (spec section 2 "add virtual device", ROLE_ADMIN only): a device
 * whose data fields are formulas over other devices' fields of the acting company (issue 23).
 * The static segment wins over /core/devices/:id in the router.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateVirtualDeviceBody, DevicePayload, responses } from '@iot/contracts';
import { authOf } from '../../../../../plugins/guards';
import { addVirtualDevice } from '../../../../../services/add-virtual-device';
import { getDevice } from '../../../../../services/get-device';
import { presentDevice } from '../devices/present';

const virtualDevicesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.post(
    '/virtual',
    {
      schema: {
        tags: ['devices'],
        operationId: 'addVirtualDevice',
        summary:
          'Add a virtual device: fields as formulas over d<device id>.<field> of the company (90016, 422, 89, 90017, 46)',
        body: CreateVirtualDeviceBody,
        response: responses(DevicePayload, [90016, 422, 89, 90017, 46, 90018, 77]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const id = await addVirtualDevice(db, auth, request.body);
      app.deps.onDeviceChanged(id);
      const { device, restricted } = await getDevice(db, auth, id);
      return { payload: presentDevice(device, restricted) };
    },
  );
};

export default virtualDevicesRoutes;
