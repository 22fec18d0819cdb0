import { createHash } from 'node:crypto';
import type { Mailer } from '@iot/delivery';
import { isEmail } from '@iot/domain';
import { type ActionContext, type NotificationChannel, PermanentDeliveryError } from '../context';
import { fillPlaceholders } from '../placeholders';

/** Email action (spec section 3): recipient(s), cc list, subject and body with placeholders. */
export interface EmailConfig {
  to: string[];
  cc: string[];
  subject: string;
  body: string;
}

/** Message-ID from the idempotency key: the same action's mail always carries the same id. */
export function messageIdFor(idempotencyKey: string): string {
  return `<${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}@notifier.iot>`;
}

export function createEmailChannel(mailer: Mailer): NotificationChannel<EmailConfig> {
  return {
    kind: 'email',
    async send(ctx: ActionContext, config: EmailConfig) {
      const bad = [...config.to, ...config.cc].filter((address) => !isEmail(address));
      if (config.to.length === 0 || bad.length > 0) {
        throw new PermanentDeliveryError(`invalid email recipient(s): ${bad.join(', ') || '(none)'}`);
      }
      const result = await mailer
        .send({
          to: config.to,
          cc: config.cc,
          subject: fillPlaceholders(config.subject, ctx),
          text: fillPlaceholders(config.body, ctx),
          companyId: ctx.company.id,
          messageId: messageIdFor(ctx.idempotencyKey),
        })
        .catch((error: unknown) => {
          // SMTP 5xx (mailbox unavailable, relaying denied) is final; 4xx and connection errors are not.
          const code = (error as { responseCode?: unknown }).responseCode;
          if (typeof code === 'number' && code >= 500) {
            throw new PermanentDeliveryError(`SMTP ${code}: ${(error as Error).message}`);
          }
          throw error;
        });
      return {
        recipient: config.to.join(', '),
        status: result.via === 'smtp' ? 'sent' : 'queued',
        ...(result.messageId ? { reference: result.messageId } : {}),
        details: { via: result.via, cc: config.cc },
      };
    },
  };
}
