import type { DeviceType } from '@iot/domain';

/** A flat data point as stored in `device_data.data`: field name -> value. */
export type DataRecord = Record<string, number | boolean | string>;

/**
 * What every decoder returns, built-in driver or user codec (the shape of the LoRaWAN Payload Codec
 * API, TS013-1.0.0). `errors` non-empty means the uplink could not be decoded: `data` is then empty
 * and the caller keeps the raw uplink in the device log instead of storing a data point.
 */
export interface DecodeResult {
  data: DataRecord;
  warnings: string[];
  errors: string[];
}

export interface DecodeInput {
  /** The raw payload (LoRaWAN FRMPayload, or the body of an NB-IoT/MQTT message). */
  bytes: Uint8Array;
  /** LoRaWAN application port; NB-IoT transports have none. */
  fPort?: number;
  /** Already-parsed JSON when the transport delivered JSON (NB-IoT devices often do). */
  json?: unknown;
  receivedAt: Date;
}

export interface DownlinkRequest {
  /** An action command id of the domain catalogue (`ACTION_COMMANDS`), e.g. `set_reporting_interval`. */
  command: string;
  /** The command's parameters by name, e.g. `{ minutes: 15 }`. */
  params: Record<string, unknown>;
}

export interface EncodedDownlink {
  bytes: Uint8Array;
  /** LoRaWAN port to send on; NB-IoT transports ignore it. */
  fPort: number;
}

export interface Driver {
  /** Stable id stored on the device (`driver id` in spec section 3). */
  readonly id: string;
  readonly deviceType: DeviceType;
  readonly description: string;
  /** Action commands `encodeDownlink` accepts, in catalogue order. */
  readonly commands: readonly string[];
  decodeUplink(input: DecodeInput): DecodeResult;
  /** Throws `DownlinkError` for an unsupported command or a bad parameter. */
  encodeDownlink?(request: DownlinkRequest): EncodedDownlink;
}

/** What GET /core/drivers lists. */
export interface DriverInfo {
  id: string;
  deviceType: DeviceType;
  description: string;
  commands: string[];
}

/**
 * A downlink that cannot be built. `reason` lets the API pick its code (spec section 8 reserves
 * 92 to 95 for downlink errors) without parsing the message.
 */
export class DownlinkError extends Error {
  constructor(
    readonly reason: 'unsupported_command' | 'invalid_parameter',
    readonly parameter: string,
    message: string,
  ) {
    super(message);
    this.name = 'DownlinkError';
  }
}
