/**
 * POST /core/codecs/{id}/test and /core/codecs/test: runs a saved codec, or a source not saved yet, on
 * bytes given as hex or base64 (decodeUplink, decodeDownlink) or on an encodeDownlink input, as the
 * codec editor's test panel does (The Things Stack's "payload formatters" test). The codec's own
 * failures (a throw, a loop past the time budget, a bad result) are the answer's `errors`, with the
 * script line when the sandbox names one: a test that found a bug in the codec is not an API error.
 */
import type { CodecTestRequest, CodecTestResult } from '@iot/contracts';
import type { Db } from '@iot/db';
import { apiCodecPool } from '../lib/codec-sandbox';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { getCompanyCodec, loadCodecScript, requireCodecManager } from './manage-codecs';

const HEX = /^(0x)?[0-9a-f]*$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Bytes from hex ("01 75 5c", "0x01755c") or base64 ("AXVc"); hex wins where both would read. */
export function parsePayloadBytes(text: string): Uint8Array {
  const compact = text.replace(/[\s:-]/g, '');
  if (HEX.test(compact) && compact.replace(/^0x/i, '').length % 2 === 0)
    return Uint8Array.from(Buffer.from(compact.replace(/^0x/i, ''), 'hex'));
  if (BASE64.test(compact) && compact.length % 4 === 0)
    return Uint8Array.from(Buffer.from(compact, 'base64'));
  throw apiError('INPUT_ERROR', { fields: { bytes: { key: 'error.unknown' } } });
}

const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

async function run(
  companyId: number,
  codecId: string,
  script: string,
  request: CodecTestRequest,
): Promise<CodecTestResult> {
  const sandbox = apiCodecPool();
  const codec = { companyId, codecId, script };
  const fPort = request.f_port;
  if (request.operation === 'encodeDownlink') {
    const input = request.input ?? {};
    const data =
      typeof input.data === 'object' && input.data !== null ? (input.data as Record<string, unknown>) : {};
    const result = await sandbox.encodeDownlink(codec, {
      ...input,
      data,
      ...(fPort === undefined ? {} : { fPort }),
    });
    return {
      ...(result.errors.length === 0 ? { bytes: toHex(result.bytes), f_port: result.fPort } : {}),
      warnings: result.warnings,
      errors: result.errors,
      ...(result.line === undefined ? {} : { line: result.line }),
    };
  }
  const bytes = parsePayloadBytes(request.bytes ?? '');
  const result =
    request.operation === 'decodeDownlink'
      ? await sandbox.decodeDownlink(
          codec,
          { bytes, ...(fPort === undefined ? {} : { fPort }) },
          { keepShape: true },
        )
      : await sandbox.decodeUplink(
          codec,
          { bytes, recvTime: new Date(), ...(fPort === undefined ? {} : { fPort }) },
          { keepShape: true },
        );
  return {
    ...(result.errors.length === 0 ? { data: result.shaped ?? result.data, stored: result.data } : {}),
    warnings: result.warnings,
    errors: result.errors,
    ...(result.line === undefined ? {} : { line: result.line }),
  };
}

export async function testSavedCodec(
  db: Db,
  auth: AuthContext,
  id: number,
  request: CodecTestRequest,
): Promise<CodecTestResult> {
  requireCodecManager(auth);
  const codec = await getCompanyCodec(db, auth, id);
  return run(auth.companyId, String(id), codec.script, request);
}

/** A source not saved yet: loaded in a context of the acting company that goes right after the test. */
export async function testDraftCodec(
  auth: AuthContext,
  script: string,
  request: CodecTestRequest,
): Promise<CodecTestResult> {
  requireCodecManager(auth);
  // Size and load first: a script that does not load answers with its error and line like a save does.
  try {
    await loadCodecScript(auth, script);
  } catch (error) {
    const details = (error as { details?: { error?: string; line?: number } }).details;
    if (details?.error === undefined) throw error;
    return {
      warnings: [],
      errors: [details.error],
      ...(details.line === undefined ? {} : { line: details.line }),
    };
  }
  try {
    return await run(auth.companyId, 'draft-test', script, request);
  } finally {
    apiCodecPool().evict(auth.companyId, 'draft-test');
  }
}
