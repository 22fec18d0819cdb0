import { RequireResetPasswordForm } from '../../features/auth/components/require-reset-password-form';

export function Component() {
  return <RequireResetPasswordForm />;
}
