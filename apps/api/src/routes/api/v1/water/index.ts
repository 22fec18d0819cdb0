/**
 * /api/v1/nwa: water associations (spec sections 3, 4, 6, 7; issue #26). The spec's calls answer the list
 * the console shows afterwards: members after unassign and set_admin, open requests after accept
 * (POST request-membership) and reject (DELETE). Beyond the spec: asking to join
 * (POST membership-requests), the directory of associations, device shares, usage and meter history.
 * Who may do what: services/water-access.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DownlinkBody,
  MeterHistoryPayload,
  MeterHistoryQuery,
  NwaDetailsPayload,
  NwaDeviceParams,
  NwaDirectoryEntryPayload,
  NwaIdParams,
  NwaMemberListPayload,
  NwaMemberParams,
  NwaRequestListPayload,
  NwaRequestPayload,
  NwaSummaryPayload,
  NwaUsagePayload,
  responses,
  SentPayload,
  SetNwaAdminBody,
  ShareDeviceBody,
  SharedDeviceListPayload,
  SharedDevicePayload,
  UpdateNwaBody,
  UpdateSharedDeviceBody,
} from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../plugins/guards';
import { computeWaterUsage, readWaterMeterHistory } from '../../../../services/compute-water-usage';
import {
  askToJoinWaterAssociation,
  decideWaterRequest,
  listWaterRequests,
  setWaterMemberAdmin,
  unassignWaterMember,
  updateWaterAssociation,
} from '../../../../services/manage-water-members';
import {
  getWaterAssociation,
  listWaterAssociations,
  listWaterDirectory,
} from '../../../../services/read-water-associations';
import {
  listOwnDeviceShares,
  listWaterSharedDevices,
  shareWaterDevice,
  unshareWaterDevice,
  updateWaterSharedDevice,
} from '../../../../services/share-water-devices';
import { switchSharedDevice } from '../../../../services/switch-shared-device';
import {
  presentMeterHistory,
  presentNwaDetails,
  presentNwaMember,
  presentNwaRequest,
  presentNwaSummary,
  presentSharedDevice,
  presentUsage,
} from './present';

const tags = ['water'];

const waterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, publishDownlink, config } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags,
        operationId: 'listWaterAssociations',
        summary: 'The associations the company is or belongs to (empty without any, 60011)',
        response: responses(Type.Array(NwaSummaryPayload), [60011]),
      },
    },
    async (request) => ({
      payload: (await listWaterAssociations(db, authOf(request))).map(presentNwaSummary),
    }),
  );

  app.get(
    '/directory',
    {
      schema: {
        tags,
        operationId: 'listWaterAssociationDirectory',
        summary: 'Every association a company may ask to join, with the caller’s relation to it',
        response: responses(Type.Array(NwaDirectoryEntryPayload)),
      },
    },
    async (request) => ({
      payload: (await listWaterDirectory(db, authOf(request))).map((e) => ({
        id: e.card.id,
        name: e.card.name,
        city: e.card.city,
        role: e.role,
        request_pending: e.requestPending,
      })),
    }),
  );

  app.get(
    '/devices/:device_id/shares',
    {
      schema: {
        tags,
        operationId: 'listDeviceWaterShares',
        summary: 'The associations one of the company’s devices is shared with (10)',
        params: Type.Object({ device_id: Type.Integer({ minimum: 1 }) }),
        response: responses(SharedDeviceListPayload, [10]),
      },
    },
    async (request) => ({
      payload: (await listOwnDeviceShares(db, authOf(request), request.params.device_id)).map(
        presentSharedDevice,
      ),
    }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        operationId: 'getWaterAssociation',
        summary: 'The association with its permit and the members the caller sees (90051)',
        params: NwaIdParams,
        response: responses(NwaDetailsPayload, [90051]),
      },
    },
    async (request) => ({
      payload: presentNwaDetails(await getWaterAssociation(db, authOf(request), request.params.id)),
    }),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        operationId: 'updateWaterAssociation',
        summary:
          'Edit the permit, water year, time zone, member visibility and allowances (90050, 90051, 90052, 422)',
        params: NwaIdParams,
        body: UpdateNwaBody,
        response: responses(NwaDetailsPayload, [90050, 90051, 90052, 422]),
      },
    },
    async (request) => ({
      payload: presentNwaDetails(
        await updateWaterAssociation(db, authOf(request), request.params.id, request.body),
      ),
    }),
  );

  app.delete(
    '/:id/members/:company_id',
    {
      schema: {
        tags,
        operationId: 'unassignWaterMember',
        summary: 'Unassign a member, or leave (own company); answers the members (90050, 90051, 90052)',
        params: NwaMemberParams,
        response: responses(NwaMemberListPayload, [90050, 90051, 90052]),
      },
    },
    async (request) => {
      const { id, company_id } = request.params;
      return {
        payload: (await unassignWaterMember(db, authOf(request), id, company_id)).map(presentNwaMember),
      };
    },
  );

  app.put(
    '/:id/members/:company_id/set_admin',
    {
      schema: {
        tags,
        operationId: 'setWaterMemberAdmin',
        summary: 'Make a member an association admin (is_admin false: revoke); answers the members',
        params: NwaMemberParams,
        body: Type.Optional(SetNwaAdminBody),
        response: responses(NwaMemberListPayload, [90050, 90051, 90052]),
      },
    },
    async (request) => {
      const { id, company_id } = request.params;
      const isAdmin = request.body?.is_admin ?? true;
      const members = await setWaterMemberAdmin(db, authOf(request), id, company_id, isAdmin);
      return { payload: members.map(presentNwaMember) };
    },
  );

  app.get(
    '/:id/membership-requests',
    {
      schema: {
        tags,
        operationId: 'listWaterMembershipRequests',
        summary: 'Open membership requests (90050, 90051)',
        params: NwaIdParams,
        response: responses(NwaRequestListPayload, [90050, 90051]),
      },
    },
    async (request) => ({
      payload: (await listWaterRequests(db, authOf(request), request.params.id)).map(presentNwaRequest),
    }),
  );

  app.post(
    '/:id/membership-requests',
    {
      schema: {
        tags,
        operationId: 'askToJoinWaterAssociation',
        summary: 'The acting company asks to join (main user or admin; 90050, 90051, 90054)',
        params: NwaIdParams,
        response: responses(NwaRequestPayload, [90050, 90051, 90054]),
      },
    },
    async (request) => ({
      payload: presentNwaRequest(await askToJoinWaterAssociation(db, authOf(request), request.params.id)),
    }),
  );

  for (const [method, decision] of [
    ['POST', 'accepted'],
    ['DELETE', 'rejected'],
  ] as const) {
    app.route({
      method,
      url: '/:id/request-membership/:company_id',
      schema: {
        tags,
        operationId: decision === 'accepted' ? 'acceptWaterMembership' : 'rejectWaterMembership',
        summary: `${decision === 'accepted' ? 'Accept' : 'Reject'} a membership request; answers the open requests (90050, 90051, 90053)`,
        params: NwaMemberParams,
        response: responses(NwaRequestListPayload, [90050, 90051, 90053]),
      },
      handler: async (request) => {
        const { id, company_id } = request.params;
        const open = await decideWaterRequest(db, authOf(request), id, company_id, decision);
        return { payload: open.map(presentNwaRequest) };
      },
    });
  }

  app.get(
    '/:id/shared-devices',
    {
      schema: {
        tags,
        operationId: 'listWaterSharedDevices',
        summary: 'The shared devices the caller sees (90051)',
        params: NwaIdParams,
        response: responses(SharedDeviceListPayload, [90051]),
      },
    },
    async (request) => ({
      payload: (await listWaterSharedDevices(db, authOf(request), request.params.id)).map(
        presentSharedDevice,
      ),
    }),
  );

  app.post(
    '/:id/shared-devices',
    {
      schema: {
        tags,
        operationId: 'shareWaterDevice',
        summary: 'Share one of the company’s devices with the association (90056, 90051, 90052, 10)',
        params: NwaIdParams,
        body: ShareDeviceBody,
        response: responses(SharedDeviceListPayload, [90056, 90051, 90052, 10]),
      },
    },
    async (request) => {
      const { device_id, access } = request.body;
      const shares = await shareWaterDevice(
        db,
        authOf(request),
        request.params.id,
        device_id,
        access ?? 'read',
      );
      return { payload: shares.map(presentSharedDevice) };
    },
  );

  app.put(
    '/:id/shared-devices/:device_id',
    {
      schema: {
        tags,
        operationId: 'updateWaterSharedDevice',
        summary: 'Usage settings of a shared device: member, unit, meter factor (90050, 90051, 90052, 90055)',
        params: NwaDeviceParams,
        body: UpdateSharedDeviceBody,
        response: responses(SharedDevicePayload, [90050, 90051, 90052, 90055]),
      },
    },
    async (request) => {
      const { id, device_id } = request.params;
      return {
        payload: presentSharedDevice(
          await updateWaterSharedDevice(db, authOf(request), id, device_id, request.body),
        ),
      };
    },
  );

  app.delete(
    '/:id/shared-devices/:device_id',
    {
      schema: {
        tags,
        operationId: 'unshareWaterDevice',
        summary: 'The owner takes a share back (90056, 90051, 90055)',
        params: NwaDeviceParams,
        response: responses(SharedDeviceListPayload, [90056, 90051, 90055]),
      },
    },
    async (request) => {
      const { id, device_id } = request.params;
      return {
        payload: (await unshareWaterDevice(db, authOf(request), id, device_id)).map(presentSharedDevice),
      };
    },
  );

  app.post(
    '/:id/shared-devices/:device_id/downlink',
    {
      schema: {
        tags,
        operationId: 'switchWaterSharedDevice',
        summary:
          'Switch a valve or pump shared with control (association and admin members; 90050, 90051, 90055, 90057, 90058, 92-95)',
        params: NwaDeviceParams,
        body: DownlinkBody,
        response: responses(SentPayload, [90050, 90051, 90055, 90057, 90058, 92, 93, 94, 95, 422]),
      },
    },
    async (request) => {
      const { id, device_id } = request.params;
      // A broker that cannot be reached is the send failure (95, row failed), as for one's own devices.
      const publish = await publishDownlink().catch(() => undefined);
      return {
        payload: await switchSharedDevice(
          db,
          authOf(request),
          id,
          device_id,
          request.body,
          publish,
          config.HTTP_ACTIONS_ALLOW_PRIVATE,
        ),
      };
    },
  );

  app.get(
    '/:id/shared-devices/:device_id/history',
    {
      schema: {
        tags,
        operationId: 'readWaterMeterHistory',
        summary: 'A shared meter’s readings and daily use (90051, 90055, 422)',
        params: NwaDeviceParams,
        querystring: MeterHistoryQuery,
        response: responses(MeterHistoryPayload, [90051, 90055, 422]),
      },
    },
    async (request) => {
      const { id, device_id } = request.params;
      const { from, to } = request.query;
      const history = await readWaterMeterHistory(db, authOf(request), id, device_id, {
        ...(from ? { from: new Date(from) } : {}),
        ...(to ? { to: new Date(to) } : {}),
      });
      return { payload: presentMeterHistory(history) };
    },
  );

  app.get(
    '/:id/usage',
    {
      schema: {
        tags,
        operationId: 'readWaterUsage',
        summary: 'This water year’s use per member against allowance and caps (90051)',
        params: NwaIdParams,
        response: responses(NwaUsagePayload, [90051]),
      },
    },
    async (request) => ({
      payload: presentUsage(await computeWaterUsage(db, authOf(request), request.params.id)),
    }),
  );
};

export default waterRoutes;
