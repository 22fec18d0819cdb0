/**
 * A car park's alarm rule (migration 0037): one rule of trigger 'parking' per area, owned by the area (no
 * device), whose rule_actions the notifier delivers for each parking alarm of the area. The API edits it
 * with the area; the rules worker reads the action ids when it raises a parking alarm.
 */
import type { Queryable } from '../db';
import {
  type ActionRow,
  type RuleActionRecord,
  type RuleActionValues,
  replaceRuleActions,
  toAction,
} from './rules';

/** The actions of each area's alarm rule, in position order (areas without one: absent). */
export async function listParkingAlarmActions(
  q: Queryable,
  companyId: number,
  areaIds: readonly number[],
): Promise<Map<number, RuleActionRecord[]>> {
  const out = new Map<number, RuleActionRecord[]>();
  if (areaIds.length === 0) return out;
  const { rows } = await q.query<ActionRow & { area_id: number }>(
    `SELECT r.parking_area_id::int AS area_id, a.id::int AS id, a.rule_id::int AS rule_id,
            a.position::int AS position, a.type, a.recipients, a.cc, a.subject, a.body, a.voice_language, a.url,
            a.http_method, a.target_device_id::int AS target_device_id, a.command, a.command_params, a.settings
       FROM rules r JOIN rule_actions a ON a.rule_id = r.id AND a.company_id = r.company_id
      WHERE r.company_id = $1 AND r.parking_area_id = ANY($2::bigint[])
      ORDER BY r.parking_area_id, a.position, a.id`,
    [companyId, areaIds],
  );
  for (const row of rows) out.set(row.area_id, [...(out.get(row.area_id) ?? []), toAction(row)]);
  return out;
}

/**
 * Makes `actions` the area's alarm actions: creates the area's rule on first use (named like the area),
 * deletes it when no action is left.
 */
export async function saveParkingAlarmActions(
  q: Queryable,
  companyId: number,
  areaId: number,
  name: string,
  actions: readonly RuleActionValues[],
): Promise<void> {
  if (actions.length === 0) {
    await q.query('DELETE FROM rules WHERE company_id = $1 AND parking_area_id = $2', [companyId, areaId]);
    return;
  }
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO rules (company_id, parking_area_id, name, trigger) VALUES ($1, $2, $3, 'parking')
     ON CONFLICT (parking_area_id) WHERE parking_area_id IS NOT NULL
       DO UPDATE SET name = EXCLUDED.name, updated_at = now()
     RETURNING id::int AS id`,
    [companyId, areaId, name],
  );
  await replaceRuleActions(q, companyId, rows[0]!.id, actions);
}

/** One action of an area's active alarm rule, as the rules worker needs it for a notify job. */
export interface ParkingAlarmActionRef {
  areaId: number;
  companyId: number;
  ruleId: number;
  actionId: number;
}

/** The actions of the areas' active alarm rules (rules worker, owner role, any company). */
export async function findParkingAlarmActionRefs(
  q: Queryable,
  areaIds: readonly number[],
): Promise<ParkingAlarmActionRef[]> {
  if (areaIds.length === 0) return [];
  const { rows } = await q.query<ParkingAlarmActionRef>(
    `SELECT r.parking_area_id::int AS "areaId", r.company_id::int AS "companyId", r.id::int AS "ruleId",
            a.id::int AS "actionId"
       FROM rules r JOIN rule_actions a ON a.rule_id = r.id AND a.company_id = r.company_id
      WHERE r.parking_area_id = ANY($1::bigint[]) AND r.is_active AND r.trigger = 'parking'
      ORDER BY r.parking_area_id, a.position, a.id`,
    [areaIds],
  );
  return rows;
}
