import type { DeviceImportAnswer } from '@iot/contracts';
import { API_BASE, fetchCsrfCookie, readCookie } from '../../../lib/api-client';

export type { DeviceImportAnswer };

/**
 * POST /core/devices/import with the file as text/csv (the shared api() sends JSON only). A refused
 * file (50107) answers with the same preview in `details`, which is what the dialog shows.
 */
export async function importDevicesCsv(
  csv: string,
  dryRun: boolean,
): Promise<
  | { ok: true; answer: DeviceImportAnswer }
  | { ok: false; code: number | undefined; answer?: DeviceImportAnswer }
> {
  if (!readCookie('XSRF-TOKEN')) await fetchCsrfCookie();
  const response = await fetch(`${API_BASE}/core/devices/import${dryRun ? '?dry_run=true' : ''}`, {
    method: 'POST',
    credentials: 'include',
    headers: {
      Accept: 'application/json',
      'Content-Type': 'text/csv',
      'X-Requested-With': 'XMLHttpRequest',
      'X-XSRF-TOKEN': readCookie('XSRF-TOKEN') ?? '',
    },
    body: csv,
  });
  const body = (await response.json().catch(() => null)) as {
    payload?: DeviceImportAnswer;
    code?: number;
    details?: DeviceImportAnswer;
  } | null;
  if (response.ok && body?.payload) return { ok: true, answer: body.payload };
  return body?.details?.rows
    ? { ok: false, code: body.code, answer: body.details }
    : { ok: false, code: body?.code };
}
