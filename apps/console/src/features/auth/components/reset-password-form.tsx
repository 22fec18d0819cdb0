import { KeyRoundIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker } from '../../../components/ui/form-field';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import { useResetPassword } from '../api/reset-password';
import { NEW_PASSWORD_RULES, NewPasswordFields, type NewPasswordValues } from './new-password-fields';

/** /login/reset-password/{token}: sets a new password with the emailed token. */
export function ResetPasswordForm() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const mutation = useResetPassword();
  const { form, summary } = useDomainForm<NewPasswordValues>(
    { password: '', password_confirmation: '' },
    NEW_PASSWORD_RULES,
  );
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(
      { token, ...values },
      {
        onSuccess: () => {
          notifySuccess(t('reset.done'));
          navigate('/login', { replace: true });
        },
      },
    ),
  );
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate data-testid="reset-password-form">
      <div>
        <h1 className="text-2xl font-semibold">{t('reset.new-title')}</h1>
        <p className="text-sm text-muted-foreground">{t('reset.new-intro')}</p>
      </div>
      <NewPasswordFields form={form} summary={summary} />
      <div className="flex items-center justify-between gap-2">
        <FormErrorMarker summary={summary} />
        <Button
          type="submit"
          className="ml-auto"
          disabled={!summary.canSubmit || mutation.isPending}
          data-testid="reset-password-submit"
        >
          <KeyRoundIcon />
          {t('reset.save')}
        </Button>
      </div>
      <Link to="/login" className="text-sm text-primary hover:underline" data-testid="back-to-login">
        {t('reset.back')}
      </Link>
    </form>
  );
}
