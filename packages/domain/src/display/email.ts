import { EMAIL_SHORTEN_LENGTHS } from '../constants/session';

const ELLIPSIS = '…';

/**
 * Shortens an email for narrow places (spec section 5): a local part over 15 characters keeps its
 * first 15 and an ellipsis; a domain over 15 keeps its last 15 behind an ellipsis, because the end
 * of a domain (name and top level) says the most.
 */
export function shortenEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const local = [...email.slice(0, at)];
  const domain = [...email.slice(at + 1)];
  const shortLocal =
    local.length > EMAIL_SHORTEN_LENGTHS.local
      ? `${local.slice(0, EMAIL_SHORTEN_LENGTHS.local).join('')}${ELLIPSIS}`
      : local.join('');
  const shortDomain =
    domain.length > EMAIL_SHORTEN_LENGTHS.domain
      ? `${ELLIPSIS}${domain.slice(-EMAIL_SHORTEN_LENGTHS.domain).join('')}`
      : domain.join('');
  return `${shortLocal}@${shortDomain}`;
}
