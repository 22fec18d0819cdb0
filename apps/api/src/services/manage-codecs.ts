/**
 * Codecs customers upload (issue 23; LoRaWAN Payload Codec API TS013-1.0.0). Everyone in the company
 * reads them; ROLE_ADMIN and ROLE_MAINUSER add, edit, delete and test them (else 90010). A codec is
 * loaded in the sandbox before it is stored: a script that does not parse or throws at its top level is
 * refused (90012) with the sandbox's error and line, and the entry points it defines are stored with it.
 * Sources above CODEC_MAX_SCRIPT_CHARS are 90013. Another company's codec is 90011, as is an unknown one.
 */
import { CODEC_MAX_SCRIPT_CHARS } from '@iot/contracts';
import type { Db, Queryable } from '@iot/db';
import {
  type CodecRecord,
  deleteCodec,
  findCodec,
  insertCodec,
  listCodecs,
  recordAuditEvent,
  updateCodec,
  withTenant,
} from '@iot/db';
import { FORM_RULES, isApiError } from '@iot/domain';
import { apiCodecPool } from '../lib/codec-sandbox';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export interface CodecInput {
  name?: string | null;
  script?: string;
}

export function requireCodecManager(auth: AuthContext): void {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_CODECS');
}

function checkName(name: string | null | undefined, partial: boolean): string | undefined {
  if (name === undefined && partial) return undefined;
  const trimmed = (name ?? '').trim();
  validateBody({ name: trimmed }, FORM_RULES.group);
  return trimmed;
}

function checkSize(script: string): void {
  if (script.length > CODEC_MAX_SCRIPT_CHARS)
    throw apiError('CODEC_TOO_LARGE', {
      fields: { script: { key: 'error.maxlength', params: { max: CODEC_MAX_SCRIPT_CHARS } } },
      max_chars: CODEC_MAX_SCRIPT_CHARS,
    });
}

/**
 * Loads the script in a throwaway context of the acting company; the entry points it defines, or 90012
 * with what the sandbox said. A script that loads but defines no decoder or encoder is refused as well.
 */
export async function loadCodecScript(auth: AuthContext, script: string): Promise<string[]> {
  checkSize(script);
  const pool = apiCodecPool();
  const codec = { companyId: auth.companyId, codecId: 'draft-load', script };
  let result = await pool.load(codec);
  // A thread's first codec may pay for its warm-up on a busy machine: one more try before refusing.
  if (result.overBudget) result = await pool.load(codec);
  const { overBudget: _overBudget, ...loaded } = result;
  pool.evict(auth.companyId, codec.codecId);
  if (!loaded.ok)
    throw apiError('CODEC_DOES_NOT_LOAD', {
      fields: { script: { key: 'error.unknown' } },
      error: loaded.error,
      ...(loaded.line === undefined ? {} : { line: loaded.line }),
    });
  if (loaded.functions.length === 0)
    throw apiError('CODEC_DOES_NOT_LOAD', {
      fields: { script: { key: 'error.unknown' } },
      error:
        'the script defines none of decodeUplink, encodeDownlink, decodeDownlink, Decoder, Decode, Encoder, Encode',
    });
  return loaded.functions;
}

async function write<T>(
  db: Db,
  auth: AuthContext,
  code: 'CODEC_SAVE_FAILED' | 'CODEC_DELETE_FAILED',
  fn: (tx: Queryable) => Promise<T>,
) {
  try {
    return await withTenant(db, auth.companyId, fn);
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError(code);
  }
}

/**
 * The API's loaded copy of an edited or deleted codec goes; ingest's expires with its cache (30 s), and
 * saving the script again ends a suspension (updateCodec).
 */
async function forget(auth: AuthContext, id: number): Promise<void> {
  apiCodecPool().evict(auth.companyId, String(id));
}

export function listCompanyCodecs(db: Db, auth: AuthContext): Promise<CodecRecord[]> {
  return withTenant(db, auth.companyId, (tx) => listCodecs(tx, auth.companyId));
}

export async function getCompanyCodec(db: Db, auth: AuthContext, id: number): Promise<CodecRecord> {
  const codec = await withTenant(db, auth.companyId, (tx) => findCodec(tx, auth.companyId, id));
  if (!codec) throw apiError('CODEC_NOT_FOUND');
  return codec;
}

export async function createCodec(db: Db, auth: AuthContext, input: CodecInput): Promise<CodecRecord> {
  requireCodecManager(auth);
  const name = checkName(input.name, false) ?? '';
  const script = input.script ?? '';
  const functions = await loadCodecScript(auth, script);
  return write(db, auth, 'CODEC_SAVE_FAILED', async (tx) => {
    const id = await insertCodec(tx, auth.companyId, { name, script, functions });
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'codec.create',
      details: { codec_id: id },
    });
    const codec = await findCodec(tx, auth.companyId, id);
    if (!codec) throw apiError('CODEC_SAVE_FAILED');
    return codec;
  });
}

export async function updateCompanyCodec(
  db: Db,
  auth: AuthContext,
  id: number,
  input: CodecInput,
): Promise<CodecRecord> {
  requireCodecManager(auth);
  const name = checkName(input.name, true);
  const functions = input.script === undefined ? undefined : await loadCodecScript(auth, input.script);
  const codec = await write(db, auth, 'CODEC_SAVE_FAILED', async (tx) => {
    const changes = {
      ...(name === undefined ? {} : { name }),
      ...(input.script === undefined || functions === undefined ? {} : { script: input.script, functions }),
    };
    if (!(await updateCodec(tx, auth.companyId, id, changes))) throw apiError('CODEC_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'codec.update',
      details: { codec_id: id },
    });
    const saved = await findCodec(tx, auth.companyId, id);
    if (!saved) throw apiError('CODEC_NOT_FOUND');
    return saved;
  });
  await forget(auth, id);
  return codec;
}

/** Deletes the codec; its devices fall back to their driver (codec_id becomes null). */
export async function deleteCompanyCodec(db: Db, auth: AuthContext, id: number): Promise<void> {
  requireCodecManager(auth);
  await write(db, auth, 'CODEC_DELETE_FAILED', async (tx) => {
    if (!(await deleteCodec(tx, auth.companyId, id))) throw apiError('CODEC_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'codec.delete',
      details: { codec_id: id },
    });
  });
  await forget(auth, id);
}
