/**
 * ChirpStack v4 HTTP integration: events arrive as `POST ...?event=<type>` with the protobuf JSON
 * mapping of the event (camelCase; zero values omitted). `up` is an uplink; `status` carries the
 * battery; join, ack, txack and log events become device log entries, and an ack settles the downlink
 * it names; location and integration events are acknowledged and logged by the process only.
 */

import type { DownlinkOutcome } from '@iot/contracts/uplinks';
import { DEVICE_LOG_LEVEL, DOWNLINK_NOT_ACKNOWLEDGED_CHIRPSTACK } from '@iot/domain';
import { normalizeDevEui } from '../devices/device-directory.js';
import {
  base64OrUndefined,
  bestReception,
  dateOrUndefined,
  isRecord,
  type LnsUplink,
  numberOrUndefined,
} from './lns-uplink.js';

export const CHIRPSTACK_EVENTS = [
  'up',
  'status',
  'join',
  'ack',
  'txack',
  'log',
  'location',
  'integration',
] as const;
export type ChirpStackEvent = (typeof CHIRPSTACK_EVENTS)[number];

export function isChirpStackEvent(value: unknown): value is ChirpStackEvent {
  return typeof value === 'string' && (CHIRPSTACK_EVENTS as readonly string[]).includes(value);
}

export function chirpStackDevEui(body: Record<string, unknown>): string | null {
  return normalizeDevEui(isRecord(body.deviceInfo) ? body.deviceInfo.devEui : undefined);
}

/** An `up` event: `object` (decoded by ChirpStack's codec) when present, else `data` for our decoder. */
export function parseChirpStackUp(body: Record<string, unknown>): LnsUplink {
  const info = isRecord(body.deviceInfo) ? body.deviceInfo : {};
  const rxInfo = Array.isArray(body.rxInfo) ? body.rxInfo : [];
  const firstRx = isRecord(rxInfo[0]) ? rxInfo[0] : {};
  const metadata: Record<string, unknown> = {
    lns: 'chirpstack',
    devEui: chirpStackDevEui(body),
    deviceName: info.deviceName,
    applicationId: info.applicationId,
    devAddr: body.devAddr,
    dr: body.dr,
    gateways: rxInfo.filter(isRecord).map((rx) => rx.gatewayId),
  };
  return {
    devEui: chirpStackDevEui(body),
    decoded: isRecord(body.object) ? body.object : undefined,
    bytes: base64OrUndefined(body.data) ?? new Uint8Array(),
    fPort: numberOrUndefined(body.fPort),
    // fCnt 0 is omitted by the protobuf JSON mapping.
    fcnt: numberOrUndefined(body.fCnt) ?? 0,
    measuredAt: dateOrUndefined(body.time) ?? dateOrUndefined(firstRx.time),
    messageId: typeof body.deduplicationId === 'string' ? body.deduplicationId : undefined,
    ...bestReception(rxInfo),
    metadata,
  };
}

/** A `status` event's battery (percent) unless the device reports it as unavailable or runs on mains. */
export function parseChirpStackStatus(body: Record<string, unknown>): {
  batteryLevel?: number;
  measuredAt?: Date | undefined;
  messageId?: string | undefined;
  margin?: number | undefined;
} {
  const level = numberOrUndefined(body.batteryLevel);
  const unavailable = body.batteryLevelUnavailable === true || body.externalPowerSource === true;
  return {
    ...(level !== undefined && !unavailable ? { batteryLevel: level } : {}),
    measuredAt: dateOrUndefined(body.time),
    messageId: typeof body.deduplicationId === 'string' ? body.deduplicationId : undefined,
    margin: numberOrUndefined(body.margin),
  };
}

// Device log levels on the platform's scale (DEVICE_LOG_LEVEL), not syslog's numbers.
const LOG_LEVELS: Record<string, number> = {
  ERROR: DEVICE_LOG_LEVEL.error,
  WARNING: DEVICE_LOG_LEVEL.warning,
  INFO: DEVICE_LOG_LEVEL.info,
};

/**
 * The device log entry (level, message) for a join, ack, txack or log event; null for events that are
 * not about the device's life (location, integration).
 */
export function chirpStackDeviceLog(
  event: string,
  body: Record<string, unknown>,
): { level: number; message: string; kind: string; params: Record<string, unknown> } | null {
  switch (event) {
    case 'join':
      return {
        level: DEVICE_LOG_LEVEL.info,
        message: `joined the network (DevAddr ${String(body.devAddr ?? 'unknown')})`,
        kind: 'lns_joined',
        params: { dev_addr: String(body.devAddr ?? 'unknown') },
      };
    case 'ack':
      return body.acknowledged === true
        ? {
            level: DEVICE_LOG_LEVEL.info,
            message: 'downlink acknowledged by the device',
            kind: 'lns_downlink_acknowledged',
            params: {},
          }
        : {
            level: DEVICE_LOG_LEVEL.warning,
            message: 'downlink not acknowledged by the device',
            kind: 'lns_downlink_not_acknowledged',
            params: {},
          };
    case 'txack':
      return {
        level: DEVICE_LOG_LEVEL.debug,
        message: `downlink sent by gateway ${String(body.gatewayId ?? 'unknown')}`,
        kind: 'lns_downlink_sent',
        params: { gateway: String(body.gatewayId ?? 'unknown') },
      };
    case 'log': {
      const level = LOG_LEVELS[String(body.level ?? 'INFO')] ?? DEVICE_LOG_LEVEL.info;
      return {
        level,
        message: `ChirpStack ${String(body.code ?? 'log')}: ${String(body.description ?? '')}`.trim(),
        // The network server's own words: shown as it wrote them, in every language.
        kind: 'lns_log',
        params: {
          server: 'ChirpStack',
          code: String(body.code ?? 'log'),
          description: String(body.description ?? ''),
        },
      };
    }
    default:
      return null;
  }
}

/**
 * What an `ack` event says of the downlink it names by `queueItemId` (the reference the notifier stored):
 * ChirpStack sends it when the device acknowledged a confirmed downlink, or with `acknowledged` false
 * (omitted, being protobuf's zero value) when the acknowledgement timed out. ChirpStack does not send the
 * item again then, so the downlink failed. undefined for other events and for an ack without an item id.
 */
export function chirpStackDownlinkOutcome(
  event: string,
  body: Record<string, unknown>,
): DownlinkOutcome | undefined {
  if (event !== 'ack' || typeof body.queueItemId !== 'string' || body.queueItemId === '') return undefined;
  return body.acknowledged === true
    ? { reference: body.queueItemId, state: 'acknowledged' }
    : { reference: body.queueItemId, state: 'failed', error: DOWNLINK_NOT_ACKNOWLEDGED_CHIRPSTACK };
}
