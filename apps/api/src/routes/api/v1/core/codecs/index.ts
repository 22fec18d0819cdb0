/**
 * /api/v1/core/codecs: the acting company's payload codecs (TS013, issue 23). Everyone in the company
 * reads; ROLE_ADMIN and ROLE_MAINUSER add, edit, delete and test (90010). Another company's codec is
 * 90011. A device decodes with a codec once its codec_id is set (PUT /core/devices/{id}).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CodecDraftTestBody,
  CodecPayload,
  CodecTestBody,
  CodecTestPayload,
  CreateCodecBody,
  DeletedPayload,
  IdParams,
  responses,
  UpdateCodecBody,
} from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import {
  createCodec,
  deleteCompanyCodec,
  getCompanyCodec,
  listCompanyCodecs,
  updateCompanyCodec,
} from '../../../../../services/manage-codecs';
import { testDraftCodec, testSavedCodec } from '../../../../../services/test-codec';
import { presentCodec } from './present';

const codecsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['codecs'],
        operationId: 'listCodecs',
        summary: "The company's codecs with their sources and devices, sorted by name",
        response: responses(Type.Array(CodecPayload)),
      },
    },
    async (request) => ({ payload: (await listCompanyCodecs(db, authOf(request))).map(presentCodec) }),
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['codecs'],
        operationId: 'createCodec',
        summary:
          'Add a codec; loaded in the sandbox first (90010, 422, 90012 does not load, 90013 too large)',
        body: CreateCodecBody,
        response: responses(CodecPayload, [90010, 422, 90012, 90013, 90014, 77]),
      },
    },
    async (request) => ({ payload: presentCodec(await createCodec(db, authOf(request), request.body)) }),
  );

  app.post(
    '/test',
    {
      schema: {
        tags: ['codecs'],
        operationId: 'testCodecDraft',
        summary: 'Run a source not saved yet on bytes or an encoder input (90010, 422, 90013)',
        body: CodecDraftTestBody,
        response: responses(CodecTestPayload, [90010, 422, 90013, 77]),
      },
    },
    async (request) => {
      const { script, ...test } = request.body;
      return { payload: await testDraftCodec(authOf(request), script, test) };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['codecs'],
        operationId: 'getCodec',
        summary: 'One codec (90011)',
        params: IdParams,
        response: responses(CodecPayload, [90011, 422]),
      },
    },
    async (request) => ({
      payload: presentCodec(await getCompanyCodec(db, authOf(request), request.params.id)),
    }),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['codecs'],
        operationId: 'updateCodec',
        summary: 'Edit a codec; a new source is loaded first (90010, 90011, 422, 90012, 90013)',
        params: IdParams,
        body: UpdateCodecBody,
        response: responses(CodecPayload, [90010, 90011, 422, 90012, 90013, 90014, 77]),
      },
    },
    async (request) => ({
      payload: presentCodec(await updateCompanyCodec(db, authOf(request), request.params.id, request.body)),
    }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['codecs'],
        operationId: 'deleteCodec',
        summary: 'Delete a codec; its devices fall back to their driver (90010, 90011)',
        params: IdParams,
        response: responses(DeletedPayload, [90010, 90011, 422, 90015, 77]),
      },
    },
    async (request) => {
      await deleteCompanyCodec(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );

  app.post(
    '/:id/test',
    {
      schema: {
        tags: ['codecs'],
        operationId: 'testCodec',
        summary: 'Run a saved codec on bytes (hex or base64) or an encoder input (90010, 90011, 422)',
        params: IdParams,
        body: CodecTestBody,
        response: responses(CodecTestPayload, [90010, 90011, 422, 77]),
      },
    },
    async (request) => ({
      payload: await testSavedCodec(db, authOf(request), request.params.id, request.body),
    }),
  );
};

export default codecsRoutes;
