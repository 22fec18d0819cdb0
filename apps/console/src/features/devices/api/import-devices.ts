import type { DeviceImportAnswer } from '@iot/contracts';
import { API_BASE, fetchCsrfCookie, readCookie } from '../../../lib/api-client';

export type { DeviceImportAnswer };

/**
 * POST /core/devices/import with the file as text/csv (the shared api() sends JSON only). A refused
 * file (50107) answers with the same preview in `details`, which is what the dialog shows. A long
 * import streams its progress (NDJSON lines `{progress: {written, total}}` before the answer's line),
 * handed to `onProgress`.
 */
export async function importDevicesCsv(
  csv: string,
  dryRun: boolean,
  onProgress?: (progress: { written: number; total: number }) => void,
): Promise<
  | { ok: true; answer: DeviceImportAnswer }
  | { ok: false; code: number | undefined; answer?: DeviceImportAnswer }
> {
  if (!readCookie('XSRF-TOKEN')) await fetchCsrfCookie();
  const response = await fetch(`${API_BASE}/core/devices/import${dryRun ? '?dry_run=true' : ''}`, {
    method: 'POST',
    credentials: 'include',
    headers: {
      Accept: 'application/x-ndjson, application/json',
      'Content-Type': 'text/csv',
      'X-Requested-With': 'XMLHttpRequest',
      'X-XSRF-TOKEN': readCookie('XSRF-TOKEN') ?? '',
    },
    body: csv,
  });
  type Line = { payload?: DeviceImportAnswer; code?: number; details?: DeviceImportAnswer };
  let body: Line | null = null;
  if ((response.headers.get('content-type') ?? '').startsWith('application/x-ndjson') && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      buffered += value ?? '';
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const text of done ? [...lines, buffered] : lines) {
        if (text.trim() === '') continue;
        const line = JSON.parse(text) as Line & { progress?: { written: number; total: number } };
        if (line.progress) onProgress?.(line.progress);
        else body = line;
      }
      if (done) break;
    }
  } else body = (await response.json().catch(() => null)) as Line | null;
  if (response.ok && body?.code === undefined && body?.payload) return { ok: true, answer: body.payload };
  return body?.details?.rows
    ? { ok: false, code: body.code, answer: body.details }
    : { ok: false, code: body?.code };
}
