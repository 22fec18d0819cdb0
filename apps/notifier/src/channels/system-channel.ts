import { type Db, insertSystemMessage, withTenant } from '@iot/db';
import { wordServerText } from '@iot/domain';
import type { ActionContext, NotificationChannel } from '../context';
import { fillPlaceholders, placeholderValues } from '../placeholders';

/**
 * System action (spec section 3): subject and text, shown in the console's messages (GET /core/messages).
 * null where the rule left them blank: the message is then the platform's `rule_alarm` kind, worded for
 * each reader in their language (English stored for clients that read subject and body only).
 */
export interface SystemConfig {
  subject: string | null;
  body: string | null;
  /** Syslog severity 0..7; rule notifications default to 4 (warning). */
  level: number;
}

export function createSystemChannel(db: Db): NotificationChannel<SystemConfig> {
  return {
    kind: 'system',
    async send(ctx: ActionContext, config: SystemConfig) {
      // Both blank: the platform's kind. One blank: the rule's words, the blank one in the company's language.
      const platform = config.subject === null && config.body === null;
      const params = { ...placeholderValues(ctx), field: ctx.field, value: ctx.value };
      const worded = wordServerText('rule_alarm', params, platform ? 'en' : ctx.language)!;
      const id = await withTenant(db, ctx.company.id, (tx) =>
        insertSystemMessage(tx, ctx.company.id, {
          subject: config.subject === null ? (worded.subject ?? '') : fillPlaceholders(config.subject, ctx),
          body: config.body === null ? worded.text : fillPlaceholders(config.body, ctx),
          level: config.level,
          deviceId: ctx.device.id,
          ruleId: ctx.rule?.id ?? null,
          ...(platform ? { kind: 'rule_alarm', params } : {}),
        }),
      );
      return { recipient: `company:${ctx.company.id}`, status: 'sent', reference: String(id) };
    },
  };
}
