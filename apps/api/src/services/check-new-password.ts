import { validatePassword } from '@iot/domain/validation/password';
import { apiError } from '../lib/errors';

/** The password policy of spec section 5 (domain rule) and the confirmation field; 422 with the rule's key. */
export function checkNewPassword(password: string, confirmation?: string): void {
  const problem = validatePassword(password);
  if (problem) throw apiError('INPUT_ERROR', { field: 'password', ...problem });
  if (confirmation !== undefined && confirmation !== password) {
    throw apiError('INPUT_ERROR', { field: 'password_confirmation', key: 'error.confirmation' });
  }
}
