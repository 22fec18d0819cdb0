import { KeyRoundIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker } from '../../../components/ui/form-field';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import { useLogout } from '../api/logout';
import { useSetOwnPassword } from '../api/set-own-password';
import { NEW_PASSWORD_RULES, NewPasswordFields, type NewPasswordValues } from './new-password-fields';

/** /login/require-reset-password: a signed-in user whose password must be replaced first. */
export function RequireResetPasswordForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mutation = useSetOwnPassword();
  const logout = useLogout();
  const { form, summary } = useDomainForm<NewPasswordValues>(
    { password: '', password_confirmation: '' },
    NEW_PASSWORD_RULES,
  );
  const onSubmit = form.handleSubmit((values) => {
    mutation.mutate(values, {
      onSuccess: () => {
        notifySuccess(t('reset.done'));
        navigate('/dashboard', { replace: true });
      },
    });
  });
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate data-testid="require-reset-form">
      <div>
        <h1 className="text-2xl font-semibold">{t('reset.required-title')}</h1>
        <p className="text-sm text-muted-foreground">{t('reset.required-intro')}</p>
      </div>
      <NewPasswordFields form={form} summary={summary} />
      <div className="flex items-center justify-between gap-2">
        <Button
          variant="ghost"
          onClick={() => logout.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) })}
          data-testid="require-reset-logout"
        >
          {t('shell.logout')}
        </Button>
        <FormErrorMarker summary={summary} />
        <Button
          type="submit"
          disabled={!summary.canSubmit || mutation.isPending}
          data-testid="require-reset-submit"
        >
          <KeyRoundIcon />
          {t('reset.save')}
        </Button>
      </div>
    </form>
  );
}
