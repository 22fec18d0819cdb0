/**
 * The Things Stack v3 webhook (and MQTT integration) uplink: `{ end_device_ids, correlation_ids,
 * received_at, uplink_message }`. A webhook with a field mask may send only `uplink_message`, so the
 * DevEUI can also come from the URL (`?dev_eui={{.DevEUI}}` in the webhook's path template).
 */
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
