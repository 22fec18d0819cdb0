import type { Db, Queryable } from '@iot/db';
import { clearOpenAlarms, insertRule, replaceRuleActions, updateRule, withTenant } from '@iot/db';
import { hasModule, isApiError } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { refuseTooManyRules } from './check-limits';
import type { PreparedRule } from './prepare-device-rules';

const PAID_CHANNELS = new Set(['sms', 'voice_message']);

/**
 * Writes prepared rules in one transaction: new ones inserted, listed ones updated, actions replaced.
 * SMS and voice actions need the paid messaging module (27 without it; issue #27).
 */
export async function saveDeviceRules(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  rules: readonly PreparedRule[],
): Promise<void> {
  if (rules.length === 0) return;
  const paid = rules.some((r) => r.actions.some((a) => PAID_CHANNELS.has(a.type)));
  if (paid && !hasModule(auth.realCompanyId, auth.company.modules, 'paid_messaging'))
    throw apiError('MODULE_NOT_LICENSED', { module: 'paid_messaging' });
  const creates = rules.some((r) => r.id === undefined);
  try {
    await withTenant(db, auth.companyId, async (tx: Queryable) => {
      for (const rule of rules) {
        let id = rule.id;
        if (id === undefined) id = await insertRule(tx, auth.companyId, deviceId, rule.values);
        else {
          const updated = await updateRule(tx, auth.companyId, deviceId, id, rule.values);
          if (!updated) throw apiError('RULE_NOT_FOUND', { id });
          if (updated.conditionChanged)
            await clearOpenAlarms(tx, auth.companyId, { ruleId: id }, 'rule_changed');
        }
        await replaceRuleActions(tx, auth.companyId, id, rule.actions);
      }
      if (creates) await refuseTooManyRules(tx, auth.companyId, deviceId);
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError(creates ? 'RULE_CREATE_FAILED' : 'RULE_UPDATE_FAILED');
  }
}
