/**
 * The Things Stack v3 webhook (and MQTT integration) uplink: `{ end_device_ids, correlation_ids,
 * received_at, uplink_message }`. A webhook with a field mask may send only `uplink_message`, so the
 * DevEUI can also come from the URL (`?dev_eui={{.DevEUI}}` in the webhook's path template).
 */

import type { DownlinkOutcome } from '@iot/contracts/uplinks';
import { TTS_DOWNLINK_CORRELATION_PREFIX } from '@iot/db';
import { DEVICE_LOG_LEVEL, DOWNLINK_TTS_FAILED_PREFIX } from '@iot/domain';
import { normalizeDevEui } from '../devices/device-directory.js';
import {
  base64OrUndefined,
  bestReception,
  dateOrUndefined,
  isRecord,
  type LnsUplink,
  numberOrUndefined,
} from './lns-uplink.js';

export function ttsDevEui(body: Record<string, unknown>): string | null {
  return normalizeDevEui(isRecord(body.end_device_ids) ? body.end_device_ids.dev_eui : undefined);
}

/**
 * Message id: the Application Server's `as:up:` correlation id (one per uplink, the same on a
 * webhook retry), else `fcnt:<f_cnt>:<received_at>`, else none (the front door derives one).
 */
function ttsMessageId(body: Record<string, unknown>, uplink: Record<string, unknown>): string | undefined {
  const ids = Array.isArray(body.correlation_ids) ? body.correlation_ids : [];
  const asUp = ids.find((id): id is string => typeof id === 'string' && id.startsWith('as:up:'));
  if (asUp) return asUp;
  const fcnt = numberOrUndefined(uplink.f_cnt);
  const received = uplink.received_at ?? body.received_at;
  if (fcnt !== undefined && typeof received === 'string') return `fcnt:${fcnt}:${received}`;
  return undefined;
}

/** null when the body has no `uplink_message` (another kind of TTS message). */
export function parseTtsUplink(body: Record<string, unknown>): LnsUplink | null {
  const uplink = body.uplink_message;
  if (!isRecord(uplink)) return null;
  const ids = isRecord(body.end_device_ids) ? body.end_device_ids : {};
  const appIds = isRecord(ids.application_ids) ? ids.application_ids : {};
  return {
    devEui: ttsDevEui(body),
    decoded: isRecord(uplink.decoded_payload) ? uplink.decoded_payload : undefined,
    bytes: base64OrUndefined(uplink.frm_payload) ?? new Uint8Array(),
    fPort: numberOrUndefined(uplink.f_port),
    fcnt: numberOrUndefined(uplink.f_cnt),
    measuredAt: dateOrUndefined(uplink.received_at) ?? dateOrUndefined(body.received_at),
    messageId: ttsMessageId(body, uplink),
    ...bestReception(uplink.rx_metadata),
    metadata: {
      lns: 'tts',
      devEui: ttsDevEui(body),
      deviceId: ids.device_id,
      applicationId: appIds.application_id,
      devAddr: ids.dev_addr,
      gateways: Array.isArray(uplink.rx_metadata)
        ? uplink.rx_metadata
            .filter(isRecord)
            .map((rx) => (isRecord(rx.gateway_ids) ? rx.gateway_ids.gateway_id : null))
        : [],
    },
  };
}

/** A TTS message about a downlink: its device log entry and, where it settles the downlink, the outcome. */
export interface TtsDownlinkEvent {
  devEui: string | null;
  /** The message's type: downlink_ack, downlink_nack, downlink_sent, downlink_failed or downlink_queued. */
  event: (typeof TTS_DOWNLINK_MESSAGES)[number];
  log: { level: number; message: string; kind: string; params: Record<string, unknown> };
  outcome?: DownlinkOutcome;
  measuredAt: Date | undefined;
  /** `<event>:<our correlation id>`, so reports on two downlinks at the same time are not one repeated. */
  messageId: string | undefined;
}

const TTS_DOWNLINK_MESSAGES = [
  'downlink_ack',
  'downlink_nack',
  'downlink_sent',
  'downlink_failed',
  'downlink_queued',
] as const;

/** The notifier's correlation id among the downlink's (or, failing that, the message's) correlation ids. */
function ourCorrelationId(...lists: unknown[]): string | undefined {
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    const id = list.find(
      (c): c is string => typeof c === 'string' && c.startsWith(TTS_DOWNLINK_CORRELATION_PREFIX),
    );
    if (id) return id;
  }
  return undefined;
}

/**
 * A downlink message of a TTS webhook (one with the downlink message types enabled): `downlink_ack` (the
 * device acknowledged a confirmed downlink) settles it as acknowledged, `downlink_failed` as failed; a
 * `downlink_nack` leaves it sent, since the Application Server queues a downlink the device did not
 * acknowledge again. Each is a device log entry. null for a message of another kind.
 */
export function parseTtsDownlinkEvent(body: Record<string, unknown>): TtsDownlinkEvent | null {
  const event = TTS_DOWNLINK_MESSAGES.find((name) => isRecord(body[name]));
  if (!event) return null;
  const message = body[event] as Record<string, unknown>;
  // downlink_failed wraps the downlink with the error; the others are the downlink itself.
  const downlink = event === 'downlink_failed' && isRecord(message.downlink) ? message.downlink : message;
  const reference = ourCorrelationId(downlink.correlation_ids, body.correlation_ids);
  const port = numberOrUndefined(downlink.f_port);
  const what = port === undefined ? 'downlink' : `downlink on port ${port}`;
  const lnsKind = (what: string, params: Record<string, unknown> = {}) => ({
    kind: `lns_downlink_${what}`,
    params: { ...params, port: port ?? null, server: 'The Things Stack' },
  });
  let log: TtsDownlinkEvent['log'];
  let outcome: DownlinkOutcome | undefined;
  switch (event) {
    case 'downlink_ack':
      log = {
        level: DEVICE_LOG_LEVEL.info,
        message: `${what} acknowledged by the device`,
        ...lnsKind('acknowledged'),
      };
      if (reference) outcome = { reference, state: 'acknowledged' };
      break;
    case 'downlink_nack':
      log = {
        level: DEVICE_LOG_LEVEL.warning,
        message: `${what} not acknowledged by the device; The Things Stack queues it again`,
        ...lnsKind('not_acknowledged', { requeued: true }),
      };
      break;
    case 'downlink_failed': {
      const error = ttsErrorText(message.error);
      log = {
        level: DEVICE_LOG_LEVEL.error,
        message: `${what} failed: ${error}`,
        ...lnsKind('failed', { error }),
      };
      if (reference) outcome = { reference, state: 'failed', error: `${DOWNLINK_TTS_FAILED_PREFIX}${error}` };
      break;
    }
    case 'downlink_sent':
      log = { level: DEVICE_LOG_LEVEL.debug, message: `${what} sent to a gateway`, ...lnsKind('sent') };
      break;
    case 'downlink_queued':
      log = {
        level: DEVICE_LOG_LEVEL.debug,
        message: `${what} queued at The Things Stack`,
        ...lnsKind('queued'),
      };
      break;
  }
  return {
    devEui: ttsDevEui(body),
    event,
    log,
    ...(outcome ? { outcome } : {}),
    measuredAt: dateOrUndefined(body.received_at),
    messageId: reference ? `${event}:${reference}` : undefined,
  };
}

/** TTS's error details (`{ namespace, name, message_format, attributes }`) as one line. */
function ttsErrorText(error: unknown): string {
  if (!isRecord(error)) return 'unknown error';
  const format = typeof error.message_format === 'string' ? error.message_format : undefined;
  const name = typeof error.name === 'string' ? error.name : undefined;
  return format ?? name ?? 'unknown error';
}

/** The queue path TTS names in X-Downlink-Push: application, webhook and device ids, then `down/push`. */
const TTS_PUSH_PATH = /^\/api\/v3\/as\/applications\/[^/]+\/webhooks\/[^/]+\/devices\/[^/]+\/down\/push$/;

/**
 * Where the device's downlinks go, from the headers a TTS webhook with a downlink API key sends
 * (X-Downlink-Push, X-Downlink-Apikey); null when either is missing or the URL is not a TTS downlink
 * queue (an http(s) URL with exactly the push path, no query or credentials), so a header cannot point
 * the notifier at an arbitrary address.
 */
export function ttsDownlinkRoute(
  headers: Record<string, string | string[] | undefined>,
): { pushUrl: string; apiKey: string } | null {
  const push = headers['x-downlink-push'];
  const key = headers['x-downlink-apikey'];
  if (typeof push !== 'string' || typeof key !== 'string' || key.trim() === '' || key.length > 4096)
    return null;
  let url: URL;
  try {
    url = new URL(push);
  } catch {
    return null;
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash) {
    return null;
  }
  if (!TTS_PUSH_PATH.test(url.pathname)) return null;
  return { pushUrl: url.href, apiKey: key.trim() };
}
