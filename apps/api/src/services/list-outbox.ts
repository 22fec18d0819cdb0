/**
 * GET /core/outbox: what the platform kept or handed over for the acting company, newest first: mail
 * (outbox_emails: unsent without SMTP, sent or failed with it) and SMS and calls (outbox_phone_messages:
 * unsent without Twilio, sent with the SID, or failed). Without a mail or SMS provider, as in the embedded
 * default, this is where an operator reads what the rules would have sent.
 *
 * Mail addressed to another user of the company than the reader (a password reset link, an alarm mail to a
 * colleague's own address) is left out: an admin must not be able to read another user's reset link here.
 */
import type { OutboxEmailEntry, OutboxPhoneMessageEntry } from '@iot/contracts';
import { type Db, listOutboxEmails, listPhoneMessages, withTenant } from '@iot/db';
import type { AuthContext } from '../types';

export const OUTBOX_DEFAULT_LIMIT = 100;

type OutboxState = OutboxEmailEntry['state'];

const iso = (value: Date | null) => (value === null ? null : value.toISOString());
const stateOf = (sentAt: Date | null, error: string | null): OutboxState =>
  sentAt !== null ? 'sent' : error !== null ? 'failed' : 'unsent';

export async function listOutbox(
  db: Db,
  auth: AuthContext,
  limit = OUTBOX_DEFAULT_LIMIT,
): Promise<{ emails: OutboxEmailEntry[]; phone_messages: OutboxPhoneMessageEntry[] }> {
  return withTenant(db, auth.companyId, async (tx) => {
    const emails = await listOutboxEmails(tx, auth.companyId, auth.user.id, limit);
    const phones = await listPhoneMessages(tx, auth.companyId, limit);
    return {
      emails: emails.map((mail) => ({
        id: mail.id,
        recipients: mail.recipients,
        cc: mail.cc,
        subject: mail.subject,
        body: mail.body,
        state: stateOf(mail.sentAt, mail.error),
        error: mail.error,
        sent_at: iso(mail.sentAt),
        created_at: iso(mail.createdAt) ?? '',
      })),
      phone_messages: phones.map((phone) => ({
        id: phone.id,
        channel: phone.channel,
        recipient: phone.recipient,
        body: phone.body,
        voice_language: phone.voiceLanguage,
        device_id: phone.deviceId,
        device_name: phone.deviceName,
        rule_id: phone.ruleId,
        rule_name: phone.ruleName,
        reference: phone.reference,
        state: stateOf(phone.sentAt, phone.error),
        error: phone.error,
        sent_at: iso(phone.sentAt),
        created_at: iso(phone.createdAt) ?? '',
      })),
    };
  });
}
