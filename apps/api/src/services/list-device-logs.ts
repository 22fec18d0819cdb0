/**
 * GET /core/devices/{id}/logs: a device's log, newest first, with each level's name from the domain's
 * logLevelName (spec section 3: 0 and 1 are shown as critical, the index is taken modulo 7). The level
 * filter takes a name or a number; a name selects every stored level shown under that name, so the
 * filtered list matches what the console labels.
 */
import type { DataRange, Db } from '@iot/db';
import { deviceExists, listDeviceLogs, withTenant } from '@iot/db';
import { LOG_LEVELS, type LogLevel, logLevelName, userLanguage, wordServerText } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';

/** Stored levels are syslog severities 0..7 (device_logs.level). */
const STORED_LEVELS = [0, 1, 2, 3, 4, 5, 6, 7];

function levelsFor(level: string): number[] {
  if (/^\d+$/.test(level)) {
    const n = Number(level);
    if (STORED_LEVELS.includes(n)) return [n];
  } else if ((LOG_LEVELS as readonly string[]).includes(level)) {
    return STORED_LEVELS.filter((n) => logLevelName(n) === level);
  }
  throw apiError('INPUT_ERROR', { fields: { level: { key: 'error.unknown' } } });
}

export interface DeviceLogEntry {
  id: number;
  device_id: number;
  level: number;
  level_name: LogLevel;
  /** In the reader's language where the entry has a kind; else as stored (entries before migration 0040). */
  message: string;
  kind: string | null;
  params: Record<string, unknown> | null;
  payload: unknown;
  /** Undecodable payload bytes, hex. */
  raw: string | null;
  created_at: string;
}

export async function listLogsOfDevice(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  options: { level?: string; range?: Partial<DataRange>; limit: number },
): Promise<DeviceLogEntry[]> {
  const levels = options.level === undefined || options.level === '' ? undefined : levelsFor(options.level);
  const logs = await withTenant(db, auth.companyId, async (tx) => {
    if (!(await deviceExists(tx, auth.companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
    return listDeviceLogs(tx, auth.companyId, deviceId, {
      ...(levels ? { levels } : {}),
      ...(options.range?.from ? { from: options.range.from } : {}),
      ...(options.range?.to ? { to: options.range.to } : {}),
      limit: options.limit,
    });
  });
  const language = userLanguage(auth.user.locale);
  return logs.map((log) => ({
    id: log.id,
    device_id: log.deviceId,
    level: log.level,
    level_name: logLevelName(log.level),
    message: wordServerText(log.kind, log.params, language)?.text ?? log.message,
    kind: log.kind,
    params: log.params,
    payload: log.payload ?? null,
    raw: log.raw ? Buffer.from(log.raw).toString('hex') : null,
    created_at: log.createdAt.toISOString(),
  }));
}
