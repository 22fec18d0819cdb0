/**
 * Network server integrations: ChirpStack v4 HTTP integration and The Things Stack v3 webhook. Both
 * authenticate with a company's integration token and find the device by DevEUI within that company
 * only, so another company's DevEUI is an unknown device.
 */

import type { DownlinkOutcome, UplinkEnvelope, UplinkSource } from '@iot/contracts/uplinks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptUplink, gateUplink, type IngestContext, refusalFor } from '../accept/ingest-context.js';
import {
  type IngestDevice,
  type IngestIntegrationToken,
  normalizeDevEui,
} from '../devices/device-directory.js';
import {
  chirpStackDevEui,
  chirpStackDeviceLog,
  chirpStackDownlinkOutcome,
  isChirpStackEvent,
  parseChirpStackStatus,
  parseChirpStackUp,
} from '../lns/chirpstack.js';
import { dateOrUndefined, isRecord, type LnsUplink } from '../lns/lns-uplink.js';
import { parseTtsDownlinkEvent, parseTtsUplink, ttsDevEui, ttsDownlinkRoute } from '../lns/tts.js';
import { readToken } from './http-auth.js';
import { ingestErrors } from './http-errors.js';

async function integrationToken(
  ctx: IngestContext,
  request: FastifyRequest,
  kind: 'chirpstack' | 'tts',
): Promise<IngestIntegrationToken> {
  const token = readToken(request, true);
  const found = token ? await ctx.directory.integrationToken(token) : null;
  if (!found || found.kind !== kind) throw ingestErrors.unauthorized();
  // A blocked or deleted company's network server is refused before anything is written (issue #27).
  const company = await ctx.directory.company(found.companyId);
  const refusal = company?.refusal ?? 'deleted';
  if (company === null || company.refusal !== null) {
    const reason = refusal === 'blocked' ? 'company_blocked' : 'company_deleted';
    ctx.gate.refused(reason, { id: null, companyId: found.companyId }, kind);
    throw ingestErrors.company(reason, 0);
  }
  void ctx.directory.integrationTokenUsed(found);
  return found;
}

async function deviceOfCompany(
  ctx: IngestContext,
  companyId: number,
  devEui: string | null,
): Promise<IngestDevice> {
  if (!devEui) throw ingestErrors.input('The event names no DevEUI (16 hex digits).');
  const device = await ctx.directory.deviceByDevEui(companyId, devEui);
  if (!device) throw ingestErrors.unknownDevice();
  if (refusalFor(device) === 'disposed') throw ingestErrors.disposed();
  return device;
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw ingestErrors.input('The body must be a JSON object.');
  return body;
}

/** The body of a 202: the log has the uplink. */
export function accepted(envelope: UplinkEnvelope) {
  return { payload: { kind: envelope.kind, messageId: envelope.messageId } };
}

async function acceptLns(ctx: IngestContext, device: IngestDevice, source: UplinkSource, lns: LnsUplink) {
  const refusal = await gateUplink(ctx, device, source);
  if (refusal) throw ingestErrors.company(refusal, ctx.gate.retryAfterSeconds());
  return acceptUplink(
    ctx,
    {
      device,
      source,
      payload: { bytes: lns.bytes, decoded: lns.decoded, fPort: lns.fPort },
      receivedAt: new Date(),
      measuredAt: lns.measuredAt,
      messageId: lns.messageId,
      fcnt: lns.fcnt,
      rssi: lns.rssi,
      snr: lns.snr,
      metadata: lns.metadata,
    },
    'refuse',
  );
}

/**
 * A network server's event about a device that is not an uplink, as an envelope for the log: a `status`
 * (device status only) or a `log` entry, the latter with the outcome of the downlink it reports on, if any.
 * The storage writer writes them.
 */
function deviceEventEnvelope(
  device: IngestDevice,
  event: {
    kind: 'status' | 'log';
    source: UplinkSource;
    name: string;
    measuredAt: Date | undefined;
    messageId: string | undefined;
    data?: UplinkEnvelope['data'];
    log?: { level: number; message: string };
    downlink?: DownlinkOutcome | undefined;
    metadata: Record<string, unknown>;
  },
): UplinkEnvelope {
  const receivedAt = new Date();
  const measuredAt = event.measuredAt ?? receivedAt;
  return {
    v: 1,
    kind: event.kind,
    deviceId: device.id,
    companyId: device.companyId,
    source: event.source,
    receivedAt: receivedAt.toISOString(),
    measuredAt: measuredAt.toISOString(),
    messageId: event.messageId ?? `${event.name}:${measuredAt.toISOString()}`,
    data: event.data ?? {},
    ...(event.log ? { log: event.log } : {}),
    ...(event.downlink ? { downlink: event.downlink } : {}),
    metadata: event.metadata,
  };
}

export function registerLnsRoutes(app: FastifyInstance, ctx: IngestContext): void {
  app.post<{ Querystring: { event?: string } }>('/chirpstack', async (request, reply) => {
    const token = await integrationToken(ctx, request, 'chirpstack');
    const body = bodyObject(request.body);
    const event = request.query.event ?? 'up';
    if (event === 'up') {
      const device = await deviceOfCompany(ctx, token.companyId, chirpStackDevEui(body));
      const envelope = await acceptLns(ctx, device, 'chirpstack', parseChirpStackUp(body));
      return reply.code(202).send(accepted(envelope));
    }
    if (event === 'status') {
      const device = await deviceOfCompany(ctx, token.companyId, chirpStackDevEui(body));
      const status = parseChirpStackStatus(body);
      const envelope = deviceEventEnvelope(device, {
        kind: 'status',
        source: 'chirpstack',
        name: 'status',
        measuredAt: status.measuredAt,
        messageId: status.messageId,
        data: status.batteryLevel === undefined ? {} : { battery_level: status.batteryLevel },
        metadata: { lns: 'chirpstack', event: 'status', margin: status.margin },
      });
      await ctx.publisher.publishOrRefuse([envelope]);
      return reply.code(202).send(accepted(envelope));
    }
    // join, ack, txack, log: device log entries of a known device (an ack also settles its downlink). Not
    // uplinks; answered 200 either way so ChirpStack does not retry an event nobody needs.
    const entry = chirpStackDeviceLog(event, body);
    const devEui = chirpStackDevEui(body);
    const device = entry && devEui ? await ctx.directory.deviceByDevEui(token.companyId, devEui) : null;
    if (entry && device) {
      const envelope = deviceEventEnvelope(device, {
        kind: 'log',
        source: 'chirpstack',
        name: event,
        log: entry,
        downlink: chirpStackDownlinkOutcome(event, body),
        measuredAt: dateOrUndefined(body.time),
        // Events without a deduplication id (ack, txack, log) are told apart by their queue item: two at
        // the same time are not one event repeated.
        messageId:
          typeof body.deduplicationId === 'string'
            ? body.deduplicationId
            : typeof body.queueItemId === 'string'
              ? `${event}:${body.queueItemId}`
              : undefined,
        metadata: {
          lns: 'chirpstack',
          event,
          context: body.context,
          code: body.code,
          queueItemId: body.queueItemId,
        },
      });
      await ctx.publisher.publishOrRefuse([envelope]);
    }
    request.log.info(
      { event, known: isChirpStackEvent(event), devEui: chirpStackDevEui(body), companyId: token.companyId },
      'chirpstack event received',
    );
    return reply.code(200).send({ payload: { event, handled: Boolean(entry && device) } });
  });

  const tts = async (request: FastifyRequest<{ Querystring: { dev_eui?: string } }>, reply: FastifyReply) => {
    const token = await integrationToken(ctx, request, 'tts');
    const body = bodyObject(request.body);
    const uplink = parseTtsUplink(body);
    const downlinkEvent = uplink ? null : parseTtsDownlinkEvent(body);
    if (downlinkEvent) {
      // Like ChirpStack's device events: 200 either way, an unknown device's message is not retried.
      const devEui = downlinkEvent.devEui ?? normalizeDevEui(request.query.dev_eui);
      const device = devEui ? await ctx.directory.deviceByDevEui(token.companyId, devEui) : null;
      if (device) {
        const envelope = deviceEventEnvelope(device, {
          kind: 'log',
          source: 'tts',
          name: downlinkEvent.event,
          log: downlinkEvent.log,
          downlink: downlinkEvent.outcome,
          measuredAt: downlinkEvent.measuredAt,
          messageId: downlinkEvent.messageId,
          metadata: { lns: 'tts', event: downlinkEvent.event, devEui: ttsDevEui(body) },
        });
        await ctx.publisher.publishOrRefuse([envelope]);
      }
      return reply.code(200).send({ payload: { event: downlinkEvent.event, handled: device !== null } });
    }
    if (!uplink) {
      request.log.info(
        { keys: Object.keys(body), companyId: token.companyId },
        'tts message without uplink_message',
      );
      return reply.code(200).send({ payload: { handled: false } });
    }
    const devEui = uplink.devEui ?? normalizeDevEui(request.query.dev_eui);
    const device = await deviceOfCompany(ctx, token.companyId, devEui);
    const envelope = await acceptLns(ctx, device, 'tts', uplink);
    // A webhook with a downlink API key says where this device's downlinks go (migration 0022).
    const route = ttsDownlinkRoute(request.headers);
    if (route) void ctx.directory.ttsDownlinkRoute(device, route);
    return reply.code(202).send(accepted(envelope));
  };
  app.post('/ttn', tts);
  app.post('/tts', tts);
}
