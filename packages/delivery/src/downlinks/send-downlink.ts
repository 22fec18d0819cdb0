import { randomUUID } from 'node:crypto';
import { DownlinkError, getDriver } from '@iot/codecs';
import {
  type Db,
  type DownlinkTargetRecord,
  findDownlinkTarget,
  findNetworkServer,
  findTtsDownlinkRoute,
  insertQueuedDownlink,
  markDownlinkSent,
  type NetworkServerAccess,
  type Queryable,
  TTS_DOWNLINK_CORRELATION_PREFIX,
  type TtsDownlinkRoute,
  withTenant,
} from '@iot/db';
import { ACTION_COMMANDS, type ApiError, apiError } from '@iot/domain';
import { enqueueChirpstackDownlink } from './chirpstack-downlinks';
import { type DownlinkPublish, downlinkTopic } from './downlink-transport';
import { NetworkServerRefusedError } from './network-server-refused';
import { pushTtsDownlink } from './tts-downlinks';

/** The device a downlink goes to; always read for the acting company (company_id in every query). */
export type DownlinkDevice = DownlinkTargetRecord;

export interface SendDownlinkOptions {
  db: Db;
  device: DownlinkDevice;
  /** A command of the domain catalogue (spec section 3 action commands). */
  command: string;
  params: Record<string, unknown>;
  /** How the bytes reach the device's broker. */
  publish: DownlinkPublish | undefined;
  /** The user who sent it from the console (POST /core/devices/{id}/downlink); null for rule actions. */
  userId?: number | null;
  ruleId?: number | null;
  /** HTTP_ACTIONS_ALLOW_PRIVATE: a network server (TTS push URL, ChirpStack API) may be a private address. */
  allowPrivateTargets?: boolean;
  /**
   * A rule action's notify job key: the job's retries are one command, recorded in one row that counts
   * its attempts (migration 0026). Unset (sent by hand): a row of its own.
   */
  jobKey?: string;
}

export interface SentDownlink {
  id: number;
  state: 'sent';
  fPort: number;
  bytes: Uint8Array;
  /**
   * mqtt: published on `topic`; chirpstack: queued at the company's ChirpStack as item `reference`; tts:
   * pushed to the device's queue at The Things Stack (which names no item) with correlation id `reference`.
   */
  via: 'mqtt' | 'chirpstack' | 'tts';
  topic: string | null;
  reference: string | null;
}

/** How a device's downlinks leave: its MQTT topic, or for a LoRaWAN device its network server. */
export type DownlinkRoute =
  | { via: 'mqtt' }
  | { via: 'tts'; tts: TtsDownlinkRoute }
  | { via: 'chirpstack'; chirpstack: NetworkServerAccess };

const MQTT_ROUTE: DownlinkRoute = { via: 'mqtt' };

/**
 * Where `device`'s downlinks go, read with `q` within the device's company; null for a LoRaWAN device
 * (one with a DevEUI, which hears no MQTT topic of ours) that has no network server to go through. The
 * route its TTS webhook named (migration 0022) is the device's own; the company's ChirpStack (0021) is the
 * fallback. The route holds the network server's secret: callers other than sendDownlink use `via` only.
 */
export async function findDownlinkRoute(
  q: Queryable,
  device: Pick<DownlinkDevice, 'id' | 'companyId' | 'devEui'>,
): Promise<DownlinkRoute | null> {
  if (!device.devEui) return MQTT_ROUTE;
  const tts = await findTtsDownlinkRoute(q, device.companyId, device.id);
  if (tts) return { via: 'tts', tts };
  const chirpstack = await findNetworkServer(q, device.companyId);
  return chirpstack ? { via: 'chirpstack', chirpstack } : null;
}

/** Loads a device of `companyId` for a downlink; undefined when the company has no such device. */
export async function loadDownlinkDevice(
  db: Db,
  companyId: number,
  deviceId: number,
): Promise<DownlinkDevice | undefined> {
  return withTenant(db, companyId, (tx) => findDownlinkTarget(tx, companyId, deviceId));
}

/**
 * Encodes a command with the device's driver and sends it: over MQTT (`devices/<uuid>/down`), or, for a
 * LoRaWAN device (one with a DevEUI), queued at its network server, which sends it after the device's
 * next uplink: The Things Stack when the device's webhook named its downlink queue (migration 0022),
 * else the company's ChirpStack v4 (migration 0021). Recorded in `downlinks`: queued with the encoded
 * bytes and port, then sent or failed. A LoRaWAN downlink is confirmed and keeps a reference (ChirpStack's
 * queue item id, or for TTS our correlation id): the network server's report that the device acknowledged
 * it, or that it failed, reaches ingest, and the storage writer moves the sent row on (updateDownlinkOutcomes
 * in @iot/db). A command that switches a relay or a valve is worth knowing arrived. A rule action's retries
 * (`jobKey`) are one row whose `attempts` counts them. Errors are the spec's
 * downlink codes (section 8): 92 unknown command, 93 the device (driver, transport) cannot take it, 94 a
 * bad parameter, 95 the broker or network server did not take it (`details.permanent` when a retry would
 * be refused the same way). Nothing is recorded for 92 to 94.
 */
export async function sendDownlink(options: SendDownlinkOptions): Promise<SentDownlink> {
  const { db, device, command, params } = options;
  if (!Object.hasOwn(ACTION_COMMANDS, command)) throw apiError('DOWNLINK_COMMAND_UNKNOWN', { command });
  const driver = device.driverId ? getDriver(device.driverId) : undefined;
  if (!driver?.encodeDownlink) {
    throw apiError('DOWNLINK_NOT_SUPPORTED', { command, reason: 'the device driver encodes no downlinks' });
  }
  // An MQTT device's route needs no database: no transaction for it.
  const route = device.devEui
    ? await withTenant(db, device.companyId, (tx) => findDownlinkRoute(tx, device))
    : MQTT_ROUTE;
  if (!route) {
    throw apiError('DOWNLINK_NOT_SUPPORTED', {
      command,
      reason: 'LoRaWAN device without a downlink route: no TTS webhook downlink key, no network server',
    });
  }
  let encoded: { bytes: Uint8Array; fPort: number };
  try {
    encoded = driver.encodeDownlink({ command, params });
  } catch (error) {
    if (error instanceof DownlinkError) {
      throw error.reason === 'unsupported_command'
        ? apiError('DOWNLINK_NOT_SUPPORTED', { command, reason: error.message })
        : apiError('DOWNLINK_PARAMETER_INVALID', { parameter: error.parameter, reason: error.message });
    }
    throw error;
  }
  const bytes = Buffer.from(encoded.bytes);
  // TTS names no queue item, so the downlink goes with a correlation id of ours, known before it leaves.
  let reference: string | null =
    route.via === 'tts' ? `${TTS_DOWNLINK_CORRELATION_PREFIX}${randomUUID()}` : null;
  // A retry of the same rule action takes its row up again (job_key), so the history shows one command.
  const id = await withTenant(db, device.companyId, (tx) =>
    insertQueuedDownlink(tx, device.companyId, {
      deviceId: device.id,
      command,
      params,
      encoded: bytes,
      fPort: encoded.fPort,
      createdBy: options.userId ?? null,
      ruleId: options.ruleId ?? null,
      reference,
      jobKey: options.jobKey ?? null,
    }),
  );
  const topic = route.via === 'mqtt' ? downlinkTopic(device.uuid) : null;
  try {
    if (route.via === 'tts') {
      await pushTtsDownlink(
        route.tts,
        { fPort: encoded.fPort, bytes, confirmed: true, correlationId: reference! },
        { allowPrivate: options.allowPrivateTargets ?? false },
      );
    } else if (route.via === 'chirpstack') {
      ({ reference } = await enqueueChirpstackDownlink(
        route.chirpstack,
        { devEui: device.devEui!, fPort: encoded.fPort, bytes, confirmed: true },
        { allowPrivate: options.allowPrivateTargets ?? false },
      ));
    } else {
      if (!options.publish) throw new Error('no MQTT transport for downlinks is configured');
      await options.publish(topic!, bytes);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await markDownlink(db, device.companyId, id, 'failed', message, reference);
    throw apiError('DOWNLINK_SEND_FAILED', {
      downlinkId: id,
      reason: message,
      permanent: error instanceof NetworkServerRefusedError,
    });
  }
  await markDownlink(db, device.companyId, id, 'sent', null, reference);
  return {
    id,
    state: 'sent',
    fPort: encoded.fPort,
    bytes: encoded.bytes,
    via: route.via,
    topic,
    reference,
  };
}

async function markDownlink(
  db: Db,
  companyId: number,
  id: number,
  state: 'sent' | 'failed',
  error: string | null,
  reference: string | null,
): Promise<void> {
  await withTenant(db, companyId, (tx) => markDownlinkSent(tx, companyId, id, { state, error, reference }));
}

export function isDownlinkError(error: unknown): error is ApiError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    [92, 93, 94, 95].includes((error as ApiError).code)
  );
}
