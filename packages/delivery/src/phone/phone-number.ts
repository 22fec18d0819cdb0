import { validatePhoneNumber } from '@iot/domain';
import { PermanentDeliveryError } from '../errors';

/**
 * A recipient number through the domain's phone rule (spec section 5): a + number is matched by its
 * calling code, anything else is read as a German number (default phone country DE). Returns E.164.
 */
export function toE164(raw: string): string {
  const trimmed = raw.trim();
  const result = validatePhoneNumber(trimmed, { country: trimmed.startsWith('+') ? null : undefined });
  if (!result.isValid) throw new PermanentDeliveryError(`invalid phone number ${JSON.stringify(raw)}`);
  return result.phoneNumber;
}
