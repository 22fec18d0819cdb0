/**
 * The HTTP front door as a Fastify plugin (mounted under `/ingest/v1`): device uplinks, the network
 * server integrations and the HTTP auth/ACL backend for an external MQTT broker. Answers: 202 with
 * `{ payload: { kind, messageId } }` once the event log accepted the uplink; otherwise the status
 * and `{ code, message }`, and a structured log line per refusal.
 */
import { isUtf8 } from 'node:buffer';
import { ApiError, isApiError } from '@iot/domain';
import { metrics } from '@iot/runtime';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  acceptUplink,
  companyMaySend,
  gateUplink,
  type IngestContext,
  refusalFor,
} from '../accept/ingest-context.js';
import { unstorableJson } from '../accept/uplink-json.js';
import { OverloadedError } from '../accept/uplink-publisher.js';
import { DeviceDirectory } from '../devices/device-directory.js';
import { isRecord } from '../lns/lns-uplink.js';
import { readToken } from './http-auth.js';
import { ingestErrors, UplinkRateLimitedError } from './http-errors.js';
import { accepted, registerLnsRoutes } from './http-lns.js';
import { mqttAclAllows } from './mqtt-acl.js';

export const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface IngestHttpOptions {
  ctx: IngestContext;
  /** Largest accepted body in bytes (default 64 KiB); larger gets 413. */
  bodyLimit?: number;
}

function toApiError(error: FastifyError | Error, bodyLimit: number): ApiError {
  if (isApiError(error)) return error;
  const code = (error as FastifyError).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return ingestErrors.tooLarge(bodyLimit);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return ingestErrors.unsupportedType();
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return ingestErrors.malformedJson('empty body');
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
    return ingestErrors.malformedJson(error.message);
  return new ApiError(500, 500, 'Internal error, please contact support.');
}

/**
 * The device a `/uplinks/<uuid>` request may write to: with the device's own token, or with an
 * integration token of kind `http` (a company's NB-IoT backend) of the device's company. Another
 * company's integration token sees an unknown device, as with DevEUIs.
 */
async function deviceForUplink(ctx: IngestContext, request: FastifyRequest<{ Params: { uuid: string } }>) {
  const device = await ctx.directory.deviceByUuid(request.params.uuid);
  if (!device) throw ingestErrors.unknownDevice();
  const token = readToken(request, true);
  if (!token) throw ingestErrors.unauthorized();
  let integration: Awaited<ReturnType<typeof ctx.directory.integrationToken>> = null;
  if (!DeviceDirectory.checkDeviceToken(device, token)) {
    integration = await ctx.directory.integrationToken(token);
    if (integration?.kind !== 'http') throw ingestErrors.unauthorized();
    if (integration.companyId !== device.companyId) throw ingestErrors.unknownDevice();
  }
  if (refusalFor(device) === 'disposed') throw ingestErrors.disposed();
  // The company's verdict before anything is written, the token's last use included.
  const refusal = await gateUplink(ctx, device, 'http');
  if (refusal) throw ingestErrors.company(refusal, ctx.gate.retryAfterSeconds());
  if (integration) void ctx.directory.integrationTokenUsed(integration);
  return device;
}

export const ingestHttpRoutes: FastifyPluginAsync<IngestHttpOptions> = async (
  app: FastifyInstance,
  options,
) => {
  const { ctx } = options;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;

  // One body limit for every route of the front door, whatever the parser.
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= bodyLimit;
  });

  // JSON or bytes only: Fastify's built-in text/plain parser would hand a string to the routes.
  app.removeContentTypeParser('text/plain');
  // JSON as bytes first: invalid UTF-8 would otherwise be decoded to U+FFFD and stored changed.
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(ingestErrors.unstorable('the body is not valid UTF-8'), undefined);
    parseJson(request, bytes.toString('utf8'), (error, value) => {
      if (error) return done(error, undefined);
      const problem = unstorableJson(value);
      return problem ? done(ingestErrors.unstorable(problem), undefined) : done(null, value);
    });
  });
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit },
    (_request, body, done) => done(null, body),
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof OverloadedError) {
      request.log.warn({ url: request.url, reason: 'overloaded' }, 'uplink refused, log full');
      return reply
        .code(503)
        .header('retry-after', String(error.retryAfterSeconds))
        .send({ code: 41, message: error.message });
    }
    if (error instanceof UplinkRateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
    const apiError = toApiError(error, bodyLimit);
    // Refused before it reached the event log (authentication, input): counted here, the rest in
    // ingest-context.ts.
    const path = request.url.split('?')[0] ?? '';
    const frontDoor = path.includes('/uplinks/') ? 'http' : /\/(chirpstack|ttn|tts)$/.exec(path)?.[1];
    if (frontDoor) {
      metrics.uplinksReceived.inc({ front_door: frontDoor });
      metrics.uplinksRefused.inc({ front_door: frontDoor, reason: `http_${apiError.status}` });
    }
    if (apiError.status >= 500) request.log.error({ err: error, url: request.url }, 'ingest request failed');
    else
      request.log.warn(
        {
          url: request.url,
          status: apiError.status,
          code: apiError.code,
          reason: apiError.message,
          ip: request.ip,
        },
        'uplink refused',
      );
    return reply.code(apiError.status).send(apiError.toBody());
  });

  app.post<{ Params: { uuid: string } }>('/uplinks/:uuid', async (request, reply) => {
    const device = await deviceForUplink(ctx, request);
    const body = request.body;
    let payload: { bytes?: Uint8Array; json?: Record<string, unknown> };
    if (Buffer.isBuffer(body)) payload = { bytes: new Uint8Array(body) };
    else if (isRecord(body)) payload = { json: body };
    else
      throw ingestErrors.input(
        'The body must be a JSON object of data fields or application/octet-stream bytes.',
      );
    const envelope = await acceptUplink(
      ctx,
      { device, source: 'http', payload, receivedAt: new Date() },
      'refuse',
    );
    return reply.code(202).send(accepted(envelope));
  });

  registerLnsRoutes(app, ctx);

  // HTTP authentication / ACL for an external broker (EMQX HTTP authentication and authorization,
  // mosquitto-go-auth http backend): 200 {"result":"allow"} or 403 {"result":"deny"}.
  app.post('/mqtt/auth', async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {};
    const username = typeof body.username === 'string' ? body.username : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const device = await ctx.directory.deviceByUuid(username);
    const allow =
      device !== null &&
      refusalFor(device) === null &&
      DeviceDirectory.checkDeviceToken(device, password) &&
      (await companyMaySend(ctx, device));
    if (!allow)
      request.log.warn({ username, clientid: body.clientid, ip: request.ip }, 'mqtt authentication refused');
    return reply.code(allow ? 200 : 403).send({ result: allow ? 'allow' : 'deny', is_superuser: false });
  });

  app.post('/mqtt/superuser', async (_request, reply) => reply.code(403).send({ result: 'deny' }));

  app.post('/mqtt/acl', async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {};
    const allow = mqttAclAllows({
      username: typeof body.username === 'string' ? body.username : '',
      topic: typeof body.topic === 'string' ? body.topic : '',
      action: body.action ?? body.acc,
    });
    return reply.code(allow ? 200 : 403).send({ result: allow ? 'allow' : 'deny' });
  });

  app.get('/health', async () => ({ payload: { ok: true, waiting: ctx.publisher.waiting } }));
};
