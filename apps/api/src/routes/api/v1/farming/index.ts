/**
 * /api/v1/farming (issue 24; spec sections 2, 4, 7): fields, parcels, soils and plants of the acting
 * company, behind the `farming` module licence (27 without it). Everyone in the company reads; writes
 * need ROLE_ADMIN or ROLE_MAINUSER (20009 fields, 20102 parcels). Tasks: ./tasks.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AssignDevicesBody,
  AssignParcelsBody,
  CatalogueEntryPayload,
  CreateCatalogueEntryBody,
  CreateFieldBody,
  CreateParcelBody,
  DeletedPayload,
  FieldDevicePayload,
  FieldDevicesQuery,
  FieldIdParams,
  FieldPayload,
  IdParams,
  ParcelPayload,
  responses,
  UpdateCatalogueEntryBody,
  UpdateFieldBody,
  UpdateParcelBody,
} from '@iot/contracts';
import { Type } from 'typebox';
import { authOf, requireModule } from '../../../../plugins/guards';
import {
  addCatalogueEntry,
  listFarmingCatalogue,
  removeCatalogueEntry,
  renameCatalogueEntry,
} from '../../../../services/manage-farming-catalogues';
import {
  assignFieldDevices,
  assignFieldParcels,
  createField,
  deleteField,
  listCompanyFields,
  listDevicesOfFields,
  updateField,
} from '../../../../services/manage-farming-fields';
import {
  createParcel,
  deleteCompanyParcel,
  listCompanyParcels,
  updateCompanyParcel,
} from '../../../../services/manage-parcels';
import { presentField, presentFieldDevice, presentParcel } from './present';
import farmingTaskRoutes from './tasks';

const tags = ['farming'];

const farmingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  app.addHook('preHandler', requireModule('farming'));

  app.get(
    '/fields',
    {
      schema: {
        tags,
        operationId: 'listFarmingFields',
        summary: "The company's fields with parcels, devices and size (sum of the parcels' size_m2)",
        response: responses(Type.Array(FieldPayload), [27]),
      },
    },
    async (request) => ({ payload: (await listCompanyFields(db, authOf(request))).map(presentField) }),
  );

  app.post(
    '/fields',
    {
      schema: {
        tags,
        operationId: 'createFarmingField',
        summary:
          'Add a field, optionally with boundary, parcels and devices (20009, 20010, 20011, 20022, 20042, 20146, 422)',
        body: CreateFieldBody,
        response: responses(FieldPayload, [27, 20009, 20010, 20011, 20022, 20042, 20146, 422, 77]),
      },
    },
    async (request) => ({ payload: presentField(await createField(db, authOf(request), request.body)) }),
  );

  app.get(
    '/fields/devices',
    {
      schema: {
        tags,
        operationId: 'listFarmingFieldDevices',
        summary: "The company's devices with the field each stands on; field_id narrows to one field (20001)",
        querystring: FieldDevicesQuery,
        response: responses(Type.Array(FieldDevicePayload), [27, 20001]),
      },
    },
    async (request) => ({
      payload: (await listDevicesOfFields(db, authOf(request), request.query.field_id ?? null)).map(
        presentFieldDevice,
      ),
    }),
  );

  app.put(
    '/fields/:id',
    {
      schema: {
        tags,
        operationId: 'updateFarmingField',
        summary: 'Edit a field’s name, soil, plant or boundary (20001, 20009, 20010, 20022, 20042, 422)',
        params: IdParams,
        body: UpdateFieldBody,
        response: responses(FieldPayload, [27, 20001, 20009, 20010, 20022, 20042, 422, 77]),
      },
    },
    async (request) => ({
      payload: presentField(await updateField(db, authOf(request), request.params.id, request.body)),
    }),
  );

  app.delete(
    '/fields/:id',
    {
      schema: {
        tags,
        operationId: 'deleteFarmingField',
        summary: 'Delete a field; its parcels and devices stay, unassigned (20001, 20009)',
        params: IdParams,
        response: responses(DeletedPayload, [27, 20001, 20009, 77]),
      },
    },
    async (request) => {
      await deleteField(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );

  app.put(
    '/fields/:field_id/assign/devices',
    {
      schema: {
        tags,
        operationId: 'assignFarmingFieldDevices',
        summary: 'Make exactly these devices the field’s; each leaves any other field (20001, 20009, 20011)',
        params: FieldIdParams,
        body: AssignDevicesBody,
        response: responses(FieldPayload, [27, 20001, 20009, 20011, 422, 77]),
      },
    },
    async (request) => ({
      payload: presentField(
        await assignFieldDevices(db, authOf(request), request.params.field_id, request.body.device_ids),
      ),
    }),
  );

  app.put(
    '/fields/:field_id/assign/parcels',
    {
      schema: {
        tags,
        operationId: 'assignFarmingFieldParcels',
        summary:
          'Make exactly these parcels the field’s; they leave any other field, counts and sizes follow (20001, 20009, 20146)',
        params: FieldIdParams,
        body: AssignParcelsBody,
        response: responses(FieldPayload, [27, 20001, 20009, 20146, 422, 77]),
      },
    },
    async (request) => ({
      payload: presentField(
        await assignFieldParcels(db, authOf(request), request.params.field_id, request.body.parcels),
      ),
    }),
  );

  app.get(
    '/parcels',
    {
      schema: {
        tags,
        operationId: 'listParcels',
        summary: "The company's parcels with the field each is on",
        response: responses(Type.Array(ParcelPayload), [27]),
      },
    },
    async (request) => ({ payload: (await listCompanyParcels(db, authOf(request))).map(presentParcel) }),
  );

  app.post(
    '/parcels',
    {
      schema: {
        tags,
        operationId: 'createParcel',
        summary: 'Add a parcel (20101 FLIK for German companies, 20102, 20010, 422)',
        body: CreateParcelBody,
        response: responses(ParcelPayload, [27, 20010, 20101, 20102, 422, 77]),
      },
    },
    async (request) => ({ payload: presentParcel(await createParcel(db, authOf(request), request.body)) }),
  );

  app.put(
    '/parcels/:id',
    {
      schema: {
        tags,
        operationId: 'updateParcel',
        summary: 'Edit a parcel; a field it is on follows its size (20140, 20101, 20102, 20010, 422)',
        params: IdParams,
        body: UpdateParcelBody,
        response: responses(ParcelPayload, [27, 20010, 20101, 20102, 20140, 422, 77]),
      },
    },
    async (request) => ({
      payload: presentParcel(await updateCompanyParcel(db, authOf(request), request.params.id, request.body)),
    }),
  );

  app.delete(
    '/parcels/:id',
    {
      schema: {
        tags,
        operationId: 'deleteParcel',
        summary: 'Delete a parcel that is on no field (20140, 20144 on a field, 20102)',
        params: IdParams,
        response: responses(DeletedPayload, [27, 20102, 20140, 20144, 77]),
      },
    },
    async (request) => {
      await deleteCompanyParcel(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );

  for (const kind of ['soils', 'plants'] as const) {
    const [notFound, taken, invalid] = kind === 'soils' ? [20021, 20023, 20022] : [20041, 20043, 20042];
    app.get(
      `/${kind}`,
      {
        schema: {
          tags,
          operationId: kind === 'soils' ? 'listSoils' : 'listPlants',
          summary: `The built-in ${kind} and the company's own`,
          response: responses(Type.Array(CatalogueEntryPayload), [27]),
        },
      },
      async (request) => ({ payload: await listFarmingCatalogue(db, authOf(request), kind) }),
    );
    app.post(
      `/${kind}`,
      {
        schema: {
          tags,
          operationId: kind === 'soils' ? 'createSoil' : 'createPlant',
          summary: `Add one of the company's own ${kind} (${taken} code taken, 20009)`,
          body: CreateCatalogueEntryBody,
          response: responses(CatalogueEntryPayload, [27, 20009, taken, invalid, 422, 77]),
        },
      },
      async (request) => ({ payload: await addCatalogueEntry(db, authOf(request), kind, request.body) }),
    );
    app.put(
      `/${kind}/:id`,
      {
        schema: {
          tags,
          operationId: kind === 'soils' ? 'updateSoil' : 'updatePlant',
          summary: `Rename one of the company's own ${kind} (${notFound}, 20009)`,
          params: IdParams,
          body: UpdateCatalogueEntryBody,
          response: responses(CatalogueEntryPayload, [27, 20009, notFound, invalid, 422, 77]),
        },
      },
      async (request) => ({
        payload: await renameCatalogueEntry(db, authOf(request), kind, request.params.id, request.body),
      }),
    );
    app.delete(
      `/${kind}/:id`,
      {
        schema: {
          tags,
          operationId: kind === 'soils' ? 'deleteSoil' : 'deletePlant',
          summary: `Remove one of the company's own ${kind} (${notFound}, 20009)`,
          params: IdParams,
          response: responses(DeletedPayload, [27, 20009, notFound, 77]),
        },
      },
      async (request) => {
        await removeCatalogueEntry(db, authOf(request), kind, request.params.id);
        return { payload: { id: request.params.id } };
      },
    );
  }

  await app.register(farmingTaskRoutes, { prefix: '/tasks' });
};

export default farmingRoutes;
