/**
 * Keeps the device directory's cache true: the database announces every committed change of a device or
 * an integration token (migration 0009's triggers, pg_notify in the changing transaction) and this LISTENs
 * (Db.listen). On PostgreSQL (distributed profile, where the API runs in other processes and cannot call
 * invalidateDevice) on a dedicated connection: when it is found lost (it failed, or left a heartbeat
 * unanswered: packages/db pg-listener.ts) the whole cache is dropped and devices are kept only the short
 * TTL until it is back, and after the reconnect the cache is dropped once more, because what was
 * announced while the connection was down is lost. On PGlite in its worker thread (embedded) in its
 * one session, so changes no route reports (a script, a path that does not call invalidateDevice) arrive as
 * well; the API's direct invalidateDevice stays, as it acts before the commit's notification arrives.
 * A Db without listen (PGlite on the main thread) is not followed.
 */
import {
  COMPANY_CHANGED_CHANNEL,
  type Db,
  DEVICE_CHANGED_CHANNEL,
  INTEGRATION_TOKEN_CHANGED_CHANNEL,
  type Unlisten,
} from '@iot/db';
import type { Logger } from '@iot/runtime';
import type { DeviceChange, DeviceDirectory, DeviceKey } from './device-directory.js';

/** The payload of iot_device_changed, or null when it is not one (then the whole cache goes). */
export function parseDeviceChange(payload: string): DeviceChange | null {
  try {
    const value = JSON.parse(payload) as { id?: unknown; keys?: unknown };
    if (typeof value.id !== 'number' || !Array.isArray(value.keys)) return null;
    const keys: DeviceKey[] = [];
    for (const key of value.keys as Record<string, unknown>[]) {
      if (typeof key?.company_id !== 'number') return null;
      keys.push({
        companyId: key.company_id,
        uuid: typeof key.uuid === 'string' ? key.uuid : null,
        devEui: typeof key.dev_eui === 'string' ? key.dev_eui : null,
      });
    }
    return { id: value.id, keys };
  } catch {
    return null;
  }
}

export interface ChangeFollower {
  stop(): Promise<void>;
}

/** Starts following; resolves once both LISTENs are in effect. Null when the database cannot announce. */
export async function followDeviceChanges(
  db: Db,
  directory: DeviceDirectory,
  log: Logger,
): Promise<ChangeFollower | null> {
  if (!db.listen) return null;
  const reconnected = () => {
    log.warn('device change announcements reconnected; the device cache was dropped');
    directory.invalidateAll();
    directory.changesAnnounced();
  };
  const lost = () => {
    log.warn(
      'device change announcements lost; the device cache was dropped and keeps devices briefly until they are back',
    );
    directory.changesUnannounced();
  };
  const unlisten: Unlisten[] = [];
  try {
    unlisten.push(
      await db.listen(
        DEVICE_CHANGED_CHANNEL,
        (payload) => {
          const change = parseDeviceChange(payload);
          if (change) directory.applyDeviceChange(change);
          else directory.invalidateAll();
        },
        reconnected,
        lost,
      ),
    );
    unlisten.push(
      await db.listen(
        INTEGRATION_TOKEN_CHANGED_CHANNEL,
        (payload) => {
          const id = Number(payload);
          if (Number.isSafeInteger(id)) directory.invalidateIntegrationToken(id);
          else directory.invalidateAll();
        },
        // One loss or reconnect drops everything once; the device channel's callbacks do it.
        () => {},
        () => {},
      ),
    );
    unlisten.push(
      await db.listen(
        COMPANY_CHANGED_CHANNEL,
        (payload) => {
          const id = Number(payload);
          if (Number.isSafeInteger(id)) directory.invalidateCompany(id);
          else directory.invalidateAll();
        },
        () => {},
        () => {},
      ),
    );
  } catch (error) {
    for (const stop of unlisten) await stop().catch(() => {});
    throw error;
  }
  // Anything cached before the LISTENs took effect may have missed an announcement. From here on every
  // change is announced, so devices and tokens may stay cached far longer than the short safety TTL.
  directory.invalidateAll();
  directory.changesAnnounced();
  return {
    stop: async () => {
      for (const stop of unlisten) await stop();
    },
  };
}
