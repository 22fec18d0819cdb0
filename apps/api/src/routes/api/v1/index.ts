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
import alarmsRoutes from './core/alarms/index';
import apiKeysRoutes from './core/api-keys/index';
import codecsRoutes from './core/codecs/index';
import companyRoutes from './core/company/index';
import companyLimitsRoutes from './core/company-limits/index';
import dashboardsRoutes from './core/dashboards/index';
import dataRoutes from './core/device-data/index';
import deviceImportRoutes from './core/device-import/index';
import deviceLiveRoutes from './core/device-live/index';
import devicesRoutes from './core/devices/index';
import downlinksRoutes from './core/downlinks/index';
import groupsRoutes from './core/groups/index';
import impersonationsRoutes from './core/impersonations/index';
import integrationsRoutes from './core/integrations/index';
import messagesRoutes from './core/messages/index';
import outboxRoutes from './core/outbox/index';
import platformRoutes from './core/platform/index';
import versionRoute from './core/platform/version';
import referenceRoutes from './core/reference/index';
import rulesRoutes from './core/rules/index';
import sensorChecksRoutes from './core/sensor-checks/index';
import supportAccessRoutes from './core/support-access/index';
import currentUserRoutes from './core/user/index';
import usersRoutes from './core/users/index';
import virtualDevicesRoutes from './core/virtual-devices/index';
import virtualFieldsRoutes from './core/virtual-fields/index';
import weatherRoutes from './core/weather/index';
import farmingRoutes from './farming/index';
import parkingRoutes from './parking/index';
import waterRoutes from './water/index';

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
    // /core/devices/current and /positions: static paths, matched before /core/devices/:id.
    await secured.register(deviceLiveRoutes, { prefix: '/core/devices' });
    await secured.register(devicesRoutes, { prefix: '/core/devices' });
    // Static segments (alarms, virtual_data_fields, sensor_checks) win over /core/devices/:id in the router.
    await secured.register(alarmsRoutes, { prefix: '/core/devices' });
    await secured.register(rulesRoutes, { prefix: '/core/devices' });
    await secured.register(virtualFieldsRoutes, { prefix: '/core/devices' });
    await secured.register(sensorChecksRoutes, { prefix: '/core/devices' });
    await secured.register(downlinksRoutes, { prefix: '/core/devices' });
    await secured.register(messagesRoutes, { prefix: '/core/messages' });
    await secured.register(outboxRoutes, { prefix: '/core/outbox' });
    await secured.register(dataRoutes, { prefix: '/core/data' });
    await secured.register(integrationsRoutes, { prefix: '/core/integrations' });
    await secured.register(groupsRoutes, { prefix: '/core/groups' });
    await secured.register(dashboardsRoutes, { prefix: '/core/company/dashboards' });
    await secured.register(waterRoutes, { prefix: '/nwa' });
    await secured.register(apiKeysRoutes, { prefix: '/core/company/api-keys' });
    await secured.register(impersonationsRoutes, { prefix: '/core/company/impersonations' });
    await secured.register(companyLimitsRoutes, { prefix: '/core/company/limits' });
    await secured.register(supportAccessRoutes, { prefix: '/core/company/support-access' });
    await secured.register(parkingRoutes, { prefix: '/parking' });
    await secured.register(codecsRoutes, { prefix: '/core/codecs' });
    await secured.register(virtualDevicesRoutes, { prefix: '/core/devices' });
    await secured.register(deviceImportRoutes, { prefix: '/core/devices' });
    await secured.register(farmingRoutes, { prefix: '/farming' });
    await secured.register(weatherRoutes, { prefix: '/core/weather' });
  });
};

export default apiV1;
