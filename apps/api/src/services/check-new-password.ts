import { FORM_RULES } from '@iot/domain';
import { validateBody } from '../lib/validation';

/**
 * The password policy of spec section 5 and the confirmation field (domain rules); 422 with the first
 * failing rule's key per field. The confirmation is checked when it is sent.
 */
export function checkNewPassword(password: string, confirmation?: string): void {
  validateBody(
    { password, ...(confirmation === undefined ? {} : { password_confirmation: confirmation }) },
    {
      password: FORM_RULES.resetPassword.password,
      password_confirmation: FORM_RULES.user.password_confirmation,
    },
    { partial: true },
  );
}
