/**
 * POST /core/devices/import (issue 23): devices from CSV, ROLE_ADMIN and ROLE_MAINUSER (90001).
 * Columns (header names, case and spaces ignored): name, type, serial_number, dev_eui (or identifier),
 * location, latitude, longitude, group (a group name of the company), description. A row is matched to a
 * device of the company by its serial number or DevEUI and then updated; otherwise it is new. Each row is
 * checked before anything is written and marked new, updated or invalid with reasons (keys the console
 * words in the reader's language). `dry_run` only answers that preview; otherwise one invalid row, or any
 * failure, is 50107 with the preview in `details` and nothing written: all rows go in one transaction.
 */
import type { Db } from '@iot/db';
import {
  findDevicesByIdentifiers,
  groupIdsByName,
  type ImportedDevice,
  recordAuditEvent,
  withTenant,
  writeImportedDevices,
} from '@iot/db';
import { DEVICE_TYPES, isApiError } from '@iot/domain';
import Papa from 'papaparse';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export const IMPORT_MAX_ROWS = 10_000;

export type ImportReason =
  | 'name_required'
  | 'name_too_long'
  | 'identifier_required'
  | 'type_unknown'
  | 'dev_eui_invalid'
  | 'latitude_invalid'
  | 'longitude_invalid'
  | 'group_unknown'
  | 'identifier_taken'
  | 'identifier_repeated';

export interface ImportRow {
  line: number;
  status: 'new' | 'updated' | 'invalid';
  name: string;
  device_id: number | null;
  reasons: ImportReason[];
}

export interface ImportAnswer {
  dry_run: boolean;
  counts: { new: number; updated: number; invalid: number };
  rows: ImportRow[];
}

const HEADERS: Record<string, keyof Cells> = {
  name: 'name',
  type: 'type',
  devicetype: 'type',
  serialnumber: 'serial',
  serial: 'serial',
  deveui: 'devEui',
  identifier: 'devEui',
  location: 'location',
  latitude: 'latitude',
  lat: 'latitude',
  longitude: 'longitude',
  lng: 'longitude',
  lon: 'longitude',
  group: 'group',
  description: 'description',
};

interface Cells {
  name: string;
  type: string;
  serial: string;
  devEui: string;
  location: string;
  latitude: string;
  longitude: string;
  group: string;
  description: string;
}

function readCsv(text: string): Cells[] {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => HEADERS[h.toLowerCase().replace(/[\s_-]/g, '')] ?? h,
  });
  if (parsed.meta.fields === undefined || !parsed.meta.fields.includes('name'))
    throw apiError('DEVICE_IMPORT_FAILED', { reason: 'header_missing' });
  if (parsed.data.length > IMPORT_MAX_ROWS)
    throw apiError('DEVICE_IMPORT_FAILED', { reason: 'too_many_rows', max_rows: IMPORT_MAX_ROWS });
  return parsed.data.map((r) => {
    const cell = (k: keyof Cells) => (r[k] ?? '').trim();
    return {
      name: cell('name'),
      type: cell('type'),
      serial: cell('serial'),
      devEui: cell('devEui'),
      location: cell('location'),
      latitude: cell('latitude'),
      longitude: cell('longitude'),
      group: cell('group'),
      description: cell('description'),
    };
  });
}

function coordinate(text: string, limit: number): number | null | undefined {
  if (text === '') return null;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : undefined;
}

/** The device a row describes, or why it cannot be one (checks that need no database). */
function checkCells(
  c: Cells,
  groups: Map<string, number>,
): { device: ImportedDevice; reasons: ImportReason[] } {
  const reasons: ImportReason[] = [];
  if (c.name === '') reasons.push('name_required');
  if (c.name.length > 255) reasons.push('name_too_long');
  if (c.serial === '' && c.devEui === '') reasons.push('identifier_required');
  if (c.type !== '' && !(DEVICE_TYPES as readonly string[]).includes(c.type)) reasons.push('type_unknown');
  const devEui = c.devEui.replace(/[\s:-]/g, '').toLowerCase();
  if (devEui !== '' && !/^[0-9a-f]{16}$/.test(devEui)) reasons.push('dev_eui_invalid');
  const latitude = coordinate(c.latitude, 90);
  const longitude = coordinate(c.longitude, 180);
  if (latitude === undefined) reasons.push('latitude_invalid');
  if (longitude === undefined) reasons.push('longitude_invalid');
  const groupId = c.group === '' ? null : (groups.get(c.group.toLowerCase()) ?? undefined);
  if (groupId === undefined) reasons.push('group_unknown');
  return {
    device: {
      name: c.name,
      deviceType: c.type || null,
      serialNumber: c.serial || null,
      devEui: devEui || null,
      location: c.location || null,
      latitude: latitude ?? null,
      longitude: longitude ?? null,
      groupId: groupId ?? null,
      description: c.description || null,
    },
    reasons,
  };
}

export async function importDevices(
  db: Db,
  auth: AuthContext,
  csv: string,
  dryRun: boolean,
  /** Rows written so far of `total` (a long import, while its transaction runs; nothing is committed yet). */
  onProgress?: (progress: { written: number; total: number }) => void,
): Promise<ImportAnswer> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_EDIT_DEVICES');
  const cells = readCsv(csv);
  const groups = await withTenant(db, auth.companyId, (tx) => groupIdsByName(tx, auth.companyId));
  const checked = cells.map((c) => checkCells(c, groups));
  // Identifiers are unique across the platform, so the lookup runs as the owner role (outside the
  // tenant's view); a device of another company is only ever reported as "taken", never named. A device
  // taking an identifier between this look and the write makes the write fail (unique index): 50107.
  const found = await findDevicesByIdentifiers(
    db,
    checked.flatMap((r) => (r.device.serialNumber ? [r.device.serialNumber] : [])),
    checked.flatMap((r) => (r.device.devEui ? [r.device.devEui] : [])),
  );
  try {
    return await withTenant(db, auth.companyId, async (tx) => {
      const seen = new Set<string>();
      const plan = checked.map(({ device, reasons }, index) => {
        const keys = [
          device.serialNumber && `s:${device.serialNumber}`,
          device.devEui && `e:${device.devEui}`,
        ].filter((k): k is string => Boolean(k));
        if (keys.some((k) => seen.has(k))) reasons.push('identifier_repeated');
        for (const k of keys) seen.add(k);
        const matches = found.filter(
          (d) =>
            (device.serialNumber !== null && d.serialNumber === device.serialNumber) ||
            (device.devEui !== null && d.devEui === device.devEui),
        );
        const ids = new Set(matches.map((d) => d.id));
        if (matches.some((d) => d.companyId !== auth.companyId) || ids.size > 1)
          reasons.push('identifier_taken');
        const existingId = reasons.length === 0 ? (matches[0]?.id ?? null) : null;
        const row: ImportRow = {
          line: index + 2,
          status: reasons.length > 0 ? 'invalid' : existingId === null ? 'new' : 'updated',
          name: device.name,
          device_id: existingId,
          reasons,
        };
        return { row, device, existingId };
      });
      const answer: ImportAnswer = {
        dry_run: dryRun,
        counts: {
          new: plan.filter((p) => p.row.status === 'new').length,
          updated: plan.filter((p) => p.row.status === 'updated').length,
          invalid: plan.filter((p) => p.row.status === 'invalid').length,
        },
        rows: plan.map((p) => p.row),
      };
      if (dryRun) return answer;
      if (answer.counts.invalid > 0)
        throw apiError('DEVICE_IMPORT_FAILED', { reason: 'invalid_rows', ...answer });
      const ids = await writeImportedDevices(
        tx,
        auth.companyId,
        plan,
        onProgress && ((written) => onProgress({ written, total: plan.length })),
      );
      plan.forEach((p, i) => {
        p.row.device_id = ids[i] ?? null;
      });
      await recordAuditEvent(tx, {
        companyId: auth.companyId,
        userId: auth.user.id,
        action: 'device.import',
        details: answer.counts,
      });
      return answer;
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError('DEVICE_IMPORT_FAILED');
  }
}
