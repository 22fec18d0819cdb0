/**
 * What the front doors publish to the event log topic `uplinks` (key = device id) and what the storage
 * writer and the rules worker consume. JSON on every adapter, so times are ISO strings.
 */
import type { DataRecord } from '@iot/codecs';

export const UPLINKS_TOPIC = 'uplinks';

export type UplinkSource = 'mqtt' | 'http' | 'chirpstack' | 'tts';

/**
 * - `uplink`: decoded data, stored as a data point.
 * - `decode_failed`: the raw payload that could not be decoded; kept in device_logs (level 3), no data point.
 * - `status`: device status only (e.g. a ChirpStack status event's battery), no data point.
 * - `log`: a network server's event about the device (join, ChirpStack log/ack, TTS downlink events), kept
 *   in device_logs only; with `downlink`, it also settles the downlink it reports on.
 * Consumers that only want measurements (rules) take `kind === 'uplink'`.
 */
export type UplinkKind = 'uplink' | 'decode_failed' | 'status' | 'log';

export interface UplinkEnvelope {
  v: 1;
  kind: UplinkKind;
  deviceId: number;
  companyId: number;
  source: UplinkSource;
  /** When the front door received it (ISO). */
  receivedAt: string;
  /** When it was measured: the network server's time when it gives one, else the receive time (ISO). */
  measuredAt: string;
  /** Identifies the uplink at its source; the storage writer's dedupe key with device and time. */
  messageId: string;
  data: DataRecord;
  geo?: { latitude: number; longitude: number };
  fcnt?: number;
  fPort?: number;
  rssi?: number;
  snr?: number;
  /** Decoder warnings (device log level 4). */
  warnings?: string[];
  /** Decoder errors of a `decode_failed` envelope (device log level 3). */
  errors?: string[];
  /** The undecodable payload, base64. */
  raw?: string;
  /** Device log entry of a `log` envelope (level on the DEVICE_LOG_LEVEL scale of @iot/domain). */
  log?: { level: number; message: string };
  /** A `log` envelope's news of a downlink: the device acknowledged it, or it will not arrive. */
  downlink?: DownlinkOutcome;
  /** Transport details worth keeping (gateway, DevEUI, LNS ids, data rate). */
  metadata?: Record<string, unknown>;
}

/**
 * What a network server reported about a downlink the notifier gave it, found by the reference stored
 * with the downlink (ChirpStack's queue item id; for The Things Stack the notifier's correlation id).
 */
export interface DownlinkOutcome {
  reference: string;
  state: 'acknowledged' | 'failed';
  /** Why it failed, as the network server said. */
  error?: string;
}
