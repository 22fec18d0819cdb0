import type { Config } from '@iot/config';
import twilio from 'twilio';
import { PermanentDeliveryError } from '../errors';

export type TwilioClient = ReturnType<typeof twilio>;

/**
 * The Twilio REST client from configuration, or undefined when no account is configured. With
 * TWILIO_BASE_URL set, the `api` domain (Messages, Calls: /2010-04-01/Accounts/<sid>/...) points there:
 * twilio 5 and 6 build every URL from the domain object's `baseUrl` (Domain.absoluteUrl), so setting it
 * on `client.api` is the supported override; region and edge are not applied to a base URL without
 * a twilio.com host name.
 */
export function createTwilioClient(
  config: Pick<Config, 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_BASE_URL'>,
  options: { timeoutMs?: number } = {},
): TwilioClient | undefined {
  if (!config.TWILIO_ACCOUNT_SID || !config.TWILIO_AUTH_TOKEN) return undefined;
  const client = twilio(config.TWILIO_ACCOUNT_SID, config.TWILIO_AUTH_TOKEN, {
    timeout: options.timeoutMs ?? 10_000,
    // Configuration comes from @iot/config only; an empty env keeps the library from reading process.env.
    env: {},
  });
  if (config.TWILIO_BASE_URL) client.api.baseUrl = config.TWILIO_BASE_URL.replace(/\/+$/, '');
  return client;
}

/**
 * Twilio's 4xx answers (invalid number 21211, unverified caller, ...) will not change on retry; 429 and
 * 5xx may. Returns the error to throw.
 */
export function classifyTwilioError(error: unknown): Error {
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 429) {
    return new PermanentDeliveryError(`Twilio answered ${status}: ${message}`);
  }
  return error instanceof Error ? error : new Error(message);
}
