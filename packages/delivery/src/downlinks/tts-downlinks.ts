/**
 * LoRaWAN downlinks pushed to The Things Stack v3 through its webhook downlink API: POST to the push URL
 * the device's webhook named (X-Downlink-Push, kept by ingest, migration 0022) with its API key as bearer
 * token and `{ downlinks: [{ f_port, frm_payload, priority, confirmed, correlation_ids }] }`. TTS queues
 * the bytes and sends them after the device's next uplink. Its answer carries no id of the queued item,
 * so the downlink carries ours as a correlation id (TTS_DOWNLINK_CORRELATION_PREFIX): TTS keeps it and
 * sends it back with the downlink's ack and failed messages, which ingest matches to the downlink.
 *
 * The URL came in a request header, so it is called like an http action: through the address
 * guard (no loopback, private or link-local target unless HTTP_ACTIONS_ALLOW_PRIVATE), on a fresh
 * connection, without following redirects.
 */
import type { TtsDownlinkRoute } from '@iot/db';
import { guardedRequest } from '../http/guarded-request';
import { isPublicAddress, RefusedTargetError } from '../http/ssrf-guard';
import { NetworkServerRefusedError } from './network-server-refused';

export interface TtsPushOptions {
  /** HTTP_ACTIONS_ALLOW_PRIVATE: a TTS on a private network may be reached. */
  allowPrivate: boolean;
  timeoutMs?: number;
}

export async function pushTtsDownlink(
  route: TtsDownlinkRoute,
  item: {
    fPort: number;
    bytes: Uint8Array;
    /** The device acknowledges it (TTS sends downlink_ack, or downlink_nack and queues it again). */
    confirmed: boolean;
    /** Ours, `iot:downlink:...`: comes back in the downlink's messages. */
    correlationId: string;
  },
  options: TtsPushOptions,
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const body = JSON.stringify({
    downlinks: [
      {
        f_port: item.fPort,
        frm_payload: Buffer.from(item.bytes).toString('base64'),
        priority: 'NORMAL',
        confirmed: item.confirmed,
        correlation_ids: [item.correlationId],
      },
    ],
  });
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number;
  try {
    ({ status } = await guardedRequest(
      new URL(route.pushUrl),
      'POST',
      { authorization: `Bearer ${route.apiKey}` },
      body,
      options.allowPrivate ? () => true : isPublicAddress,
      signal,
    ));
  } catch (error) {
    if (error instanceof RefusedTargetError)
      throw new NetworkServerRefusedError(error.message, 'refused target');
    if (signal.aborted) throw new Error(`The Things Stack did not answer within ${timeoutMs} ms`);
    throw error;
  }
  if (status >= 200 && status < 300) return;
  const message = `The Things Stack answered ${status}`;
  // 4xx but a timeout or a rate limit (TTS limits downlink queue operations per application): the same
  // request is refused again; 5xx and those two are worth a retry.
  if (status >= 300 && status < 500 && status !== 408 && status !== 429) {
    throw new NetworkServerRefusedError(message, String(status));
  }
  throw new Error(message);
}
