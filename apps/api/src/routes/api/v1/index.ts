/**
 * /api/v1: route folders give the URL prefix. Public routes first; everything else sits in one scope
 * whose hook demands a session (76, or 74/75 for a user without company or a blocked company).
 */
import type { FastifyPluginAsync } from 'fastify';
import { requireSession } from '../../../plugins/guards';
import csrfRoutes from '../../csrf';
import clientsRoutes from './admin/clients/index';
import authRoutes from './auth/index';
import meRoute from './auth/me';
import companyRoutes from './core/company/index';
import dataRoutes from './core/device-data/index';
import devicesRoutes from './core/devices/index';
import integrationsRoutes from './core/integrations/index';
import platformRoutes from './core/platform/index';
import versionRoute from './core/platform/version';
import referenceRoutes from './core/reference/index';
import currentUserRoutes from './core/user/index';
import usersRoutes from './core/users/index';

const apiV1: FastifyPluginAsync = async (app) => {
  await app.register(csrfRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(versionRoute, { prefix: '/core' });

  await app.register(async (secured) => {
    secured.addHook('onRequest', requireSession);
    await secured.register(meRoute, { prefix: '/auth' });
    await secured.register(currentUserRoutes, { prefix: '/core' });
    await secured.register(usersRoutes, { prefix: '/core/users' });
    await secured.register(companyRoutes, { prefix: '/core/company' });
    await secured.register(referenceRoutes, { prefix: '/core' });
    await secured.register(platformRoutes, { prefix: '/core' });
    await secured.register(clientsRoutes, { prefix: '/admin/clients' });
    await secured.register(devicesRoutes, { prefix: '/core/devices' });
    await secured.register(dataRoutes, { prefix: '/core/data' });
    await secured.register(integrationsRoutes, { prefix: '/core/integrations' });
  });
};

export default apiV1;
