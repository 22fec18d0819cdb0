import type { Db } from '@iot/db';
import { listDeviceRules, type RuleActionRecord, type RuleRecord, withTenant } from '@iot/db';
import type { AuthContext } from '../types';

export async function listRulesOfDevice(db: Db, auth: AuthContext, deviceId: number): Promise<RuleRecord[]> {
  return withTenant(db, auth.companyId, (tx) => listDeviceRules(tx, auth.companyId, deviceId));
}

/** A rule as the API shows it; each action's config has the keys its channel takes on input. */
export function presentRule(rule: RuleRecord) {
  return {
    id: rule.id,
    device_id: rule.deviceId,
    name: rule.name,
    is_active: rule.isActive,
    trigger: rule.trigger,
    data_field: rule.dataField,
    operator: rule.operator,
    value: rule.value,
    range_min: rule.rangeMin,
    range_max: rule.rangeMax,
    time_window_seconds: rule.timeWindowSeconds,
    schedule:
      rule.scheduleStart === null && rule.scheduleWeekdays.length === 7
        ? null
        : { start: rule.scheduleStart, end: rule.scheduleEnd, weekdays: rule.scheduleWeekdays },
    max_actions: rule.maxActions,
    max_actions_period_seconds: rule.maxActionsPeriodSeconds,
    click_type: rule.clickType,
    max_clicks: rule.maxClicks,
    last_fired_at: rule.lastFiredAt ? rule.lastFiredAt.toISOString() : null,
    actions: rule.actions.map(presentAction),
  };
}

export function presentAction(a: RuleActionRecord) {
  const config = (): Record<string, unknown> => {
    switch (a.type) {
      case 'email':
        return { recipient: a.recipients[0] ?? '', cc: a.cc.join(', '), subject: a.subject, body: a.body };
      case 'sms':
        return { phone: a.recipients, body: a.body };
      case 'voice_message':
        return { phone: a.recipients, message: a.body, language: a.voiceLanguage };
      case 'system':
        return {
          subject: a.subject,
          text: a.body,
          ...(a.settings.level === undefined ? {} : { level: a.settings.level }),
        };
      case 'http':
        return { method: a.httpMethod, url: a.url, headers: a.settings.headers ?? {}, body: a.body };
      case 'remote_control':
        return { command: a.command, params: a.commandParams, target_device_id: a.targetDeviceId };
      case 'farming_task':
        return {
          title: a.subject,
          notes: a.body,
          task_type: a.settings.task_type ?? 'custom',
          field_ids: a.settings.field_ids ?? [],
          due_in_hours: a.settings.due_in_hours ?? null,
          assignee_user_id: a.settings.assignee_user_id ?? null,
        };
    }
  };
  return { id: a.id, channel: a.type, config: config() };
}
