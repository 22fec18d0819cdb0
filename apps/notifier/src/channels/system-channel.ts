import { type Db, withTenant } from '@iot/db';
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
      const { rows } = await withTenant(db, ctx.company.id, (tx) =>
        tx.query<{ id: number }>(
          `INSERT INTO messages (company_id, subject, body, level, device_id, rule_id)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [
            ctx.company.id,
            fillPlaceholders(config.subject, ctx),
            fillPlaceholders(config.body, ctx),
            config.level,
            ctx.device.id,
            ctx.rule?.id ?? null,
          ],
        ),
      );
      return { recipient: `company:${ctx.company.id}`, status: 'sent', reference: String(rows[0]?.id) };
    },
  };
}
