import {
  type Db,
  fieldOfDevice,
  findOpenTaskOfRule,
  insertTask,
  isCompanyUser,
  lockCompanyFarming,
  ownedFieldIds,
  withTenant,
} from '@iot/db';
import type { ActionContext, NotificationChannel } from '../context';
import { fillPlaceholders } from '../placeholders';

/**
 * Farming task action (issue 24: "a rule may create a task"): the firing rule plans a task in the
 * company's farming planner, e.g. "soil too dry at Acker Ost" plans an irrigation task on that field.
 */
export interface FarmingTaskConfig {
  title: string;
  notes: string | null;
  taskType: string;
  /** The task's fields; empty: the field the firing device stands on (if any). */
  fieldIds: number[];
  /** Due this many hours after the firing; null: no due date. */
  dueInHours: number | null;
  assigneeUserId: number | null;
}

/**
 * While a task this rule created is still planned or in progress, a new firing plans no second one (a
 * dry field reports every few minutes): the delivery names the open task instead. Runs under the
 * company's farming lock, so two firings at once cannot both find none.
 */
export function createFarmingTaskChannel(db: Db): NotificationChannel<FarmingTaskConfig> {
  return {
    kind: 'farming_task',
    async send(ctx: ActionContext, config: FarmingTaskConfig) {
      const companyId = ctx.company.id;
      const result = await withTenant(db, companyId, async (tx) => {
        await lockCompanyFarming(tx, companyId);
        if (ctx.rule) {
          const open = await findOpenTaskOfRule(tx, companyId, ctx.rule.id);
          if (open !== null) return { id: open, created: false };
        }
        // A rule without fields plans on the firing device's field; an action without a device (a water
        // warning) has none.
        const deviceField = ctx.device.id === null ? null : await fieldOfDevice(tx, companyId, ctx.device.id);
        const wanted = config.fieldIds.length > 0 ? config.fieldIds : [deviceField];
        // A field deleted since the rule was saved is left out rather than failing the action.
        const fieldIds = await ownedFieldIds(
          tx,
          companyId,
          wanted.filter((id): id is number => id !== null),
        );
        const assignee =
          config.assigneeUserId !== null && (await isCompanyUser(tx, companyId, config.assigneeUserId))
            ? config.assigneeUserId
            : null;
        const title = fillPlaceholders(config.title, ctx).slice(0, 200);
        const id = await insertTask(
          tx,
          companyId,
          {
            title,
            type: config.taskType,
            status: 'planned',
            abandon_reason: null,
            notes: config.notes === null ? null : fillPlaceholders(config.notes, ctx),
            due_at:
              config.dueInHours === null
                ? null
                : new Date(ctx.at.getTime() + config.dueInHours * 3_600_000).toISOString(),
            assignee_user_id: assignee,
            field_ids: fieldIds,
            source_rule_id: ctx.rule?.id ?? null,
          },
          {
            user_id: null,
            user_name: ctx.rule?.name ?? null,
            kind: 'created',
            changes: { title, status: 'planned', rule_id: ctx.rule?.id ?? null, device: ctx.device.name },
          },
        );
        return { id, created: true };
      });
      return {
        recipient: `company:${companyId}`,
        status: 'sent',
        reference: String(result.id),
        details: { task_id: result.id, created: result.created },
      };
    },
  };
}
