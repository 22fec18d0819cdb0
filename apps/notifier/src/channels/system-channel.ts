import { type Db, insertSystemMessage, withTenant } from '@iot/db';
import type { ActionContext, NotificationChannel } from '../context';
import { fillPlaceholders } from '../placeholders';

/** System action (spec section 3): subject and text, shown in the console's messages (GET /core/messages). */
export interface SystemConfig {
  subject: string;
  body: string;
  /** Syslog severity 0..7; rule notifications default to 4 (warning). */
  level: number;
}

export const DEFAULT_SYSTEM_SUBJECT = '{rule}: {device}';
export const DEFAULT_SYSTEM_BODY = '{field} = {value} {unit} at {time}';

export function createSystemChannel(db: Db): NotificationChannel<SystemConfig> {
  return {
    kind: 'system',
    async send(ctx: ActionContext, config: SystemConfig) {
      const id = await withTenant(db, ctx.company.id, (tx) =>
        insertSystemMessage(tx, ctx.company.id, {
          subject: fillPlaceholders(config.subject, ctx),
          body: fillPlaceholders(config.body, ctx),
          level: config.level,
          deviceId: ctx.device.id,
          ruleId: ctx.rule?.id ?? null,
        }),
      );
      return { recipient: `company:${ctx.company.id}`, status: 'sent', reference: String(id) };
    },
  };
}
