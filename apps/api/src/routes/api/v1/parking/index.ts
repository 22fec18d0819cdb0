/**
 * /api/v1/parking/areas (issue #25; spec sections 2, 3, 7, 8): the acting company's car parks, licensed
 * per company as `parking` (403 code 27 without it). Everyone in the company reads; ROLE_ADMIN and
 * ROLE_MAINUSER add, edit and delete (90070). Another company's area is 40001. The NGSI-LD export also
 * needs the external API module (`external_api`), and takes an API key with `devices:read`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DeletedPayload,
  IdParams,
  NgsiLdEntitiesPayload,
  ParkingAreaBody,
  ParkingAreaPayload,
  ParkingHistoryPayload,
  ParkingHistoryQuery,
  responses,
} from '@iot/contracts';
import { Type } from 'typebox';
import { authOf, requireModule } from '../../../../plugins/guards';
import {
  createParkingArea,
  deleteCompanyParkingArea,
  getCompanyParkingArea,
  listCompanyParkingAreas,
  updateCompanyParkingArea,
} from '../../../../services/manage-parking-areas';
import { readParkingHistory } from '../../../../services/read-parking-history';
import { presentParkingArea, presentParkingAreaNgsiLd } from './present';

const TAGS = ['parking'];
const WRITE_CODES = [27, 90070, 422, 40004, 40006, 40007, 40008, 40009, 40010, 40012, 40014] as const;

const parkingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  app.addHook('preHandler', requireModule('parking'));

  app.get(
    '/areas',
    {
      schema: {
        tags: TAGS,
        operationId: 'listParkingAreas',
        summary: "The company's car parks with free slots, bays and overstays, sorted by name (27)",
        response: responses(Type.Array(ParkingAreaPayload), [27]),
      },
    },
    async (request) => {
      const now = Date.now();
      return {
        payload: (await listCompanyParkingAreas(db, authOf(request))).map((a) => presentParkingArea(a, now)),
      };
    },
  );

  app.post(
    '/areas',
    {
      schema: {
        tags: TAGS,
        operationId: 'createParkingArea',
        summary:
          'Add a car park with its devices (FIX: one parking sensor per bay); nothing is written on refusal',
        body: ParkingAreaBody,
        response: responses(ParkingAreaPayload, [...WRITE_CODES, 40002]),
      },
    },
    async (request) => ({
      payload: presentParkingArea(await createParkingArea(db, authOf(request), request.body)),
    }),
  );

  app.get(
    '/areas/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'getParkingArea',
        summary: 'One car park with its bays and their state since when (27, 40001)',
        params: IdParams,
        response: responses(ParkingAreaPayload, [27, 40001, 422]),
      },
    },
    async (request) => ({
      payload: presentParkingArea(await getCompanyParkingArea(db, authOf(request), request.params.id)),
    }),
  );

  app.get(
    '/areas/:id/history',
    {
      schema: {
        tags: TAGS,
        operationId: 'getParkingAreaHistory',
        summary:
          'Occupancy in hourly buckets, turnover, average and longest stay, share of time full (40001)',
        params: IdParams,
        querystring: ParkingHistoryQuery,
        response: responses(ParkingHistoryPayload, [27, 40001, 422]),
      },
    },
    async (request) => ({
      payload: await readParkingHistory(db, authOf(request), request.params.id, request.query.range ?? '24h'),
    }),
  );

  app.get(
    '/areas/:id/ngsi-ld',
    {
      schema: {
        tags: TAGS,
        operationId: 'getParkingAreaNgsiLd',
        summary:
          'The car park as FIWARE OffStreetParking with its bays as ParkingSpots (NGSI-LD; needs the external API module too: 27; 40001)',
        params: IdParams,
        response: responses(NgsiLdEntitiesPayload, [27, 40001, 422]),
      },
      // Open data leaves the platform: the external API module's, licensed per company like parking.
      preHandler: requireModule('external_api'),
    },
    async (request) => ({
      payload: presentParkingAreaNgsiLd(await getCompanyParkingArea(db, authOf(request), request.params.id)),
    }),
  );

  app.put(
    '/areas/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateParkingArea',
        summary: 'Edit a car park; devices replaces its devices, absent keeps them (40001)',
        params: IdParams,
        body: ParkingAreaBody,
        response: responses(ParkingAreaPayload, [...WRITE_CODES, 40001, 40003]),
      },
    },
    async (request) => ({
      payload: presentParkingArea(
        await updateCompanyParkingArea(db, authOf(request), request.params.id, request.body),
      ),
    }),
  );

  app.delete(
    '/areas/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteParkingArea',
        summary: 'Delete a car park; its devices stay, without an area (27, 90070, 40001)',
        params: IdParams,
        response: responses(DeletedPayload, [27, 90070, 40001, 40005, 422]),
      },
    },
    async (request) => {
      await deleteCompanyParkingArea(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );
};

export default parkingRoutes;
