/**
 * API keys of the licensed external API (issue #27), managed by a company's main users and admins
 * (else 90035). A new key is 256 random bits shown once in the creation answer; the database keeps its
 * sha-256 only. Deleting revokes (the row stays, marked); another company's key id is 90034.
 */
import type { Db } from '@iot/db';
import {
  type ApiKeyRecord,
  insertApiKey,
  listApiKeys,
  recordAuditEvent,
  revokeApiKey,
  withTenant,
} from '@iot/db';
import { type ApiKeyScope, hasModule } from '@iot/domain';
import { apiError } from '../lib/errors';
import { randomToken, sha256 } from '../lib/tokens';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

/** Keys start with this, so secret scanners and people recognise them. */
export const API_KEY_PREFIX = 'iotk_';
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

function requireKeyManager(auth: AuthContext): void {
  if (!hasModule(auth.realCompanyId, auth.company.modules, 'external_api')) {
    throw apiError('MODULE_NOT_LICENSED', { module: 'external_api' });
  }
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_API_KEYS');
}

export function listCompanyApiKeys(db: Db, auth: AuthContext): Promise<ApiKeyRecord[]> {
  requireKeyManager(auth);
  return withTenant(db, auth.companyId, (tx) => listApiKeys(tx, auth.companyId));
}

export interface NewApiKeyInput {
  name: string;
  scopes: readonly ApiKeyScope[];
  expiresAt: Date | null;
}

export async function createApiKey(
  db: Db,
  auth: AuthContext,
  input: NewApiKeyInput,
): Promise<{ key: string; record: ApiKeyRecord }> {
  requireKeyManager(auth);
  const name = input.name.trim();
  if (!name) throw apiError('INPUT_ERROR', { fields: { name: { key: 'error.required', params: {} } } });
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw apiError('API_KEY_EXPIRY_IN_PAST');
  const key = `${API_KEY_PREFIX}${randomToken()}`;
  const record = await withTenant(db, auth.companyId, async (tx) => {
    const created = await insertApiKey(tx, auth.companyId, {
      name,
      prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
      keyHash: sha256(key),
      scopes: [...new Set(input.scopes)],
      expiresAt: input.expiresAt,
      createdBy: auth.user.id,
    });
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'api_key.create',
      details: { api_key_id: created.id, scopes: created.scopes, real_company_id: auth.realCompanyId },
    });
    return created;
  });
  return { key, record };
}

export async function revokeCompanyApiKey(db: Db, auth: AuthContext, id: number): Promise<void> {
  requireKeyManager(auth);
  await withTenant(db, auth.companyId, async (tx) => {
    if (!(await revokeApiKey(tx, auth.companyId, id))) throw apiError('API_KEY_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'api_key.revoke',
      details: { api_key_id: id, real_company_id: auth.realCompanyId },
    });
  });
}
