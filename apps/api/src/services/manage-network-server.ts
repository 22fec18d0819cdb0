/**
 * /core/integrations/network-server: the LoRaWAN network server the company's LoRaWAN devices get their
 * downlinks through (migration 0021; the notifier's sendDownlink queues them there). ROLE_ADMIN or
 * ROLE_MAINUSER only (else 90007). The API token is write-only: answers say whether one is set, never what
 * it is; a PUT without it keeps the stored one.
 */
import type { Db } from '@iot/db';
import {
  deleteNetworkServer,
  getNetworkServer,
  type NetworkServerKind,
  type NetworkServerRecord,
  recordAuditEvent,
  saveNetworkServer,
  withTenant,
} from '@iot/db';
import { privateTargetReason } from '@iot/delivery';
import { FORM_RULES, normaliseNetworkServerUrl } from '@iot/domain';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

function requireManager(auth: AuthContext): void {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_INTEGRATIONS');
}

export interface NetworkServerInput {
  kind: NetworkServerKind;
  api_url: string;
  /** Absent: keep the stored token. */
  api_token?: string;
}

export function readCompanyNetworkServer(
  db: Db,
  auth: AuthContext,
): Promise<NetworkServerRecord | undefined> {
  requireManager(auth);
  return withTenant(db, auth.companyId, (tx) => getNetworkServer(tx, auth.companyId));
}

export async function setCompanyNetworkServer(
  db: Db,
  auth: AuthContext,
  input: NetworkServerInput,
  allowPrivateTargets = false,
): Promise<NetworkServerRecord> {
  requireManager(auth);
  const apiToken = input.api_token?.trim();
  // The console's form checks the same rules: http(s)://host[:port], no path, query or credentials.
  validateBody({ api_url: input.api_url, api_token: apiToken }, FORM_RULES.networkServer);
  const apiUrl = normaliseNetworkServerUrl(input.api_url)!;
  // Downlinks refuse a private network server (unless HTTP_ACTIONS_ALLOW_PRIVATE); say so when it is typed.
  const reason = await privateTargetReason(apiUrl, allowPrivateTargets);
  if (reason)
    throw apiError('INPUT_ERROR', {
      fields: { api_url: { key: 'error.private-target', params: { reason } } },
    });
  return withTenant(db, auth.companyId, async (tx) => {
    const saved = await saveNetworkServer(tx, auth.companyId, {
      kind: input.kind,
      apiUrl,
      // An empty token is no token: keep the stored one, as when it is left out.
      apiToken: apiToken || undefined,
      updatedBy: auth.user.id,
    });
    // Nothing to keep: the first setting needs its token.
    if (!saved) throw apiError('INPUT_ERROR', { fields: { api_token: { key: 'error.required' } } });
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'network_server.update',
      details: { kind: input.kind, api_url: apiUrl, token_changed: Boolean(apiToken) },
    });
    return (await getNetworkServer(tx, auth.companyId))!;
  });
}

export async function removeCompanyNetworkServer(db: Db, auth: AuthContext): Promise<void> {
  requireManager(auth);
  await withTenant(db, auth.companyId, async (tx) => {
    if (!(await deleteNetworkServer(tx, auth.companyId))) throw apiError('DATA_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'network_server.delete',
      details: {},
    });
  });
}

export function presentNetworkServer(record: NetworkServerRecord) {
  return {
    kind: record.kind,
    api_url: record.apiUrl,
    api_token_set: true,
    updated_by: record.updatedBy,
    updated_at: record.updatedAt.toISOString(),
  };
}
