/**
 * The company's webhook tokens for ChirpStack, The Things Stack and http scripts (ROLE_ADMIN or
 * ROLE_MAINUSER only, else 90007). A new token is 256 random bits shown once in the creation answer; the
 * database keeps its sha-256 only. Deleting revokes (the row stays, marked), another company's token
 * id is 404.
 */
import type { Db } from '@iot/db';
import {
  type IntegrationTokenKind,
  type IntegrationTokenRecord,
  insertIntegrationToken,
  listIntegrationTokens,
  recordAuditEvent,
  revokeIntegrationToken,
  withTenant,
} from '@iot/db';
import { FORM_RULES } from '@iot/domain';
import { apiError } from '../lib/errors';
import { randomToken, sha256 } from '../lib/tokens';
import { validateBody } from '../lib/validation';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

function requireManager(auth: AuthContext): void {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_INTEGRATIONS');
}

export function listCompanyIntegrationTokens(db: Db, auth: AuthContext): Promise<IntegrationTokenRecord[]> {
  requireManager(auth);
  return withTenant(db, auth.companyId, (tx) => listIntegrationTokens(tx, auth.companyId));
}

export async function createIntegrationToken(
  db: Db,
  auth: AuthContext,
  input: { kind: IntegrationTokenKind; name: string },
): Promise<{ token: string; record: IntegrationTokenRecord }> {
  requireManager(auth);
  const name = input.name.trim();
  validateBody({ name }, FORM_RULES.integrationToken);
  const token = randomToken();
  const record = await withTenant(db, auth.companyId, async (tx) => {
    const created = await insertIntegrationToken(tx, auth.companyId, {
      kind: input.kind,
      name,
      tokenHash: sha256(token),
      createdBy: auth.user.id,
    });
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'integration_token.create',
      details: { token_id: created.id, kind: created.kind },
    });
    return created;
  });
  return { token, record };
}

export async function revokeCompanyIntegrationToken(db: Db, auth: AuthContext, id: number): Promise<void> {
  requireManager(auth);
  await withTenant(db, auth.companyId, async (tx) => {
    if (!(await revokeIntegrationToken(tx, auth.companyId, id))) throw apiError('DATA_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'integration_token.revoke',
      details: { token_id: id },
    });
  });
}
