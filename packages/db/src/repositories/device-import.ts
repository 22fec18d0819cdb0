/** Lookups and writes of the CSV device import (POST /core/devices/import). */
import type { Queryable } from '../db';

export interface DeviceByIdentifier {
  id: number;
  companyId: number;
  serialNumber: string | null;
  devEui: string | null;
}

/** Devices of any company holding one of the serial numbers or DevEUIs (both are unique platform-wide). */
export async function findDevicesByIdentifiers(
  q: Queryable,
  serialNumbers: readonly string[],
  devEuis: readonly string[],
): Promise<DeviceByIdentifier[]> {
  const { rows } = await q.query<{
    id: number;
    company_id: number;
    serial_number: string | null;
    dev_eui: string | null;
  }>(
    `SELECT id::int AS id, company_id::int AS company_id, serial_number, dev_eui FROM devices
      WHERE serial_number = ANY($1::text[]) OR dev_eui = ANY($2::text[])`,
    [serialNumbers, devEuis],
  );
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    serialNumber: r.serial_number,
    devEui: r.dev_eui,
  }));
}

/** The company's groups by lower-case name. */
export async function groupIdsByName(q: Queryable, companyId: number): Promise<Map<string, number>> {
  const { rows } = await q.query<{ id: number; name: string }>(
    'SELECT id::int AS id, name FROM groups WHERE company_id = $1',
    [companyId],
  );
  return new Map(rows.map((r) => [r.name.trim().toLowerCase(), r.id]));
}

export interface ImportedDevice {
  name: string;
  deviceType: string | null;
  serialNumber: string | null;
  devEui: string | null;
  location: string | null;
  latitude: number | null;
  longitude: number | null;
  groupId: number | null;
  description: string | null;
}

const COLUMNS = `name, device_type, serial_number, dev_eui, location, latitude, longitude, group_id, description`;
const values = (d: ImportedDevice) => [
  d.name,
  d.deviceType,
  d.serialNumber,
  d.devEui,
  d.location,
  d.latitude,
  d.longitude,
  d.groupId,
  d.description,
];

/** Inserts new devices and updates existing ones of the company, row by row; ids in input order. */
/** How often a long import reports its progress (rows). */
const IMPORT_PROGRESS_EVERY = 500;

export async function writeImportedDevices(
  q: Queryable,
  companyId: number,
  rows: readonly { existingId: number | null; device: ImportedDevice }[],
  /** Called with the rows written so far, every `IMPORT_PROGRESS_EVERY` rows. */
  onProgress?: (written: number) => void,
): Promise<number[]> {
  const ids: number[] = [];
  for (const { existingId, device } of rows) {
    if (onProgress && ids.length > 0 && ids.length % IMPORT_PROGRESS_EVERY === 0) onProgress(ids.length);
    if (existingId === null) {
      const { rows: inserted } = await q.query<{ id: number }>(
        `INSERT INTO devices (company_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING id::int AS id`,
        [companyId, ...values(device)],
      );
      ids.push(inserted[0]!.id);
    } else {
      await q.query(
        `UPDATE devices SET (${COLUMNS}) = ($3, $4, $5, $6, $7, $8, $9, $10, $11), updated_at = now()
          WHERE id = $1 AND company_id = $2`,
        [existingId, companyId, ...values(device)],
      );
      ids.push(existingId);
    }
  }
  return ids;
}
