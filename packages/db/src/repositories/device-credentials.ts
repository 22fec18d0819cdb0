/**
 * What identifies a device on the uplink path (apps/ingest): its uuid, DevEUI, credentials hash, driver,
 * codec and state. The lookups resolve an uplink's device before the company is known (uuid,
 * credentials), or within the company an integration token names (DevEUI). They run as the owner role.
 */
import type { Queryable } from '../db';

export interface IngestDevice {
  id: number;
  companyId: number;
  uuid: string;
  devEui: string | null;
  credentialsHash: string | null;
  driverId: string | null;
  codecId: number | null;
  state: string;
}

/**
 * PostgreSQL announces changes of what ingest caches on this channel (migration 0009's trigger): a
 * device's JSON {id, keys: [{company_id, uuid, dev_eui}]} (its keys before and after the change). The
 * trigger fires when one of DEVICE_COLUMNS changes; a column added here must be added to its WHEN too.
 */
export const DEVICE_CHANGED_CHANNEL = 'iot_device_changed';

const DEVICE_COLUMNS = `id, company_id, uuid::text AS uuid, dev_eui, credentials_hash, driver_id, codec_id, state`;

interface DeviceRow {
  id: number;
  company_id: number;
  uuid: string;
  dev_eui: string | null;
  credentials_hash: string | null;
  driver_id: string | null;
  codec_id: number | null;
  state: string;
}

function toDevice(row: DeviceRow): IngestDevice {
  return {
    id: row.id,
    companyId: row.company_id,
    uuid: row.uuid,
    devEui: row.dev_eui,
    credentialsHash: row.credentials_hash,
    driverId: row.driver_id,
    codecId: row.codec_id,
    state: row.state,
  };
}

/** The device a topic or URL names by uuid (the caller checks the format: a bad uuid is a SQL error). */
export async function findIngestDeviceByUuid(q: Queryable, uuid: string): Promise<IngestDevice | null> {
  const { rows } = await q.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE uuid = $1::uuid`, [
    uuid,
  ]);
  return rows[0] ? toDevice(rows[0]) : null;
}

/** A LoRaWAN device by DevEUI within one company: another company's DevEUI is not found. */
export async function findIngestDeviceByDevEui(
  q: Queryable,
  companyId: number,
  devEui: string,
): Promise<IngestDevice | null> {
  const { rows } = await q.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM devices WHERE dev_eui = $1 AND company_id = $2`,
    [devEui, companyId],
  );
  return rows[0] ? toDevice(rows[0]) : null;
}

/**
 * What ingest needs of a device's company for every uplink (issue #27): whether it may send at all (not
 * blocked, not deleted) and its uplinks-per-minute limit (null: none). Cached by ingest per company;
 * a change is announced on COMPANY_CHANGED_CHANNEL (migration 0038), payload the company id.
 */
export interface IngestCompany {
  id: number;
  /** 'blocked' or 'deleted' when the company's uplinks are refused, else null. */
  refusal: 'blocked' | 'deleted' | null;
  uplinksPerMinute: number | null;
}

export const COMPANY_CHANGED_CHANNEL = 'iot_company_changed';

export async function findIngestCompany(q: Queryable, companyId: number): Promise<IngestCompany | null> {
  const { rows } = await q.query<{
    id: number;
    blocked: boolean;
    deleted: boolean;
    per_minute: number | null;
  }>(
    `SELECT id::int AS id, blocked, deleted_at IS NOT NULL AS deleted,
            (limits->>'max_uplinks_per_minute')::int AS per_minute
       FROM companies WHERE id = $1`,
    [companyId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    refusal: row.deleted ? 'deleted' : row.blocked ? 'blocked' : null,
    uplinksPerMinute: row.per_minute,
  };
}
