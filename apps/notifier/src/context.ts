/**
 * The one context every notification channel receives (STYLE 13): who fired what, on which device, with
 * which value, when (in the company's time zone), under which idempotency key.
 */
import type { InterfaceLanguage } from '@iot/domain';

export interface ActionContext {
  company: { id: number; name: string; timeZone: string };
  /**
   * The language of the delivery being sent: the recipient user's locale, the company's language for an
   * address that is no user (planDeliveries). `{field}` is the field's label in it.
   */
  language: InterfaceLanguage;
  /** The rule's device; a water usage warning has none (id null, the member as name). */
  device: { id: number | null; uuid: string; name: string };
  rule: { id: number; name: string } | null;
  alarmId: number | null;
  /** The data field that fired the rule (null for click or no-data triggers without one). */
  field: string | null;
  value: number | string | boolean | null;
  /** Unit of the field from the domain's field catalogue ('' when it has none). */
  unit: string;
  /** When the rule fired. */
  at: Date;
  /** `at` in the company's time zone, `2026-11-21 07:08:09 CET`. */
  time: string;
  /** `<rule id>:<uplink message id>:<action id>`; channels pass it on where the provider takes one. */
  idempotencyKey: string;
}

export type ChannelKind =
  | 'email'
  | 'sms'
  | 'voice_message'
  | 'system'
  | 'http'
  | 'remote_control'
  | 'farming_task';

export interface DeliveryResult {
  /** Who or what received it (address, phone number, URL, device uuid), for notification_log.recipient. */
  recipient: string;
  /** sent: handed over; queued: kept for later delivery (email outbox without SMTP). */
  status: 'sent' | 'queued';
  /** Provider reference (SMTP Message-ID, Twilio SID, messages row id, HTTP status, downlinks row id). */
  reference?: string;
  details?: Record<string, unknown>;
}

/** A delivery channel. `config` is what the rule action stores for it; `send` throws on failure. */
export interface NotificationChannel<C> {
  readonly kind: ChannelKind;
  send(ctx: ActionContext, config: C): Promise<DeliveryResult>;
}

// Thrown by @iot/delivery's transports and the channels alike.
export { PermanentDeliveryError } from '@iot/delivery';

/** The channel is not configured in this installation (no Twilio account): logged as skipped. */
export class ChannelNotConfiguredError extends Error {
  override readonly name = 'ChannelNotConfiguredError';
}
