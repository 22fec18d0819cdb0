import { FORM_RULES } from '@iot/domain';
import { MailIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { useDomainForm } from '../../../lib/use-domain-form';
import { useForgotPassword } from '../api/forgot-password';

const RULES = FORM_RULES.forgotPassword;

/** /login/reset: asks for a reset link; the answer deliberately does not reveal whether the address exists. */
export function ForgotPasswordForm() {
  const { t } = useTranslation();
  const mutation = useForgotPassword();
  const { form, summary } = useDomainForm<{ email: string }>({ email: '' }, RULES);
  const onSubmit = form.handleSubmit((values) => mutation.mutate(values));
  if (mutation.isSuccess) {
    return (
      <div className="flex flex-col gap-4" data-testid="forgot-password-sent">
        <h1 className="text-2xl font-semibold">{t('reset.title')}</h1>
        <p className="text-sm">{t('message.forgot-password-sent')}</p>
        <Link to="/login" className="text-sm text-primary hover:underline" data-testid="back-to-login">
          {t('reset.back')}
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate data-testid="forgot-password-form">
      <div>
        <h1 className="text-2xl font-semibold">{t('reset.title')}</h1>
        <p className="text-sm text-muted-foreground">{t('reset.intro')}</p>
      </div>
      <FormField name="email" label={t('login.email')} required summary={summary} testId="reset-email">
        <Input
          id="email"
          type="email"
          autoComplete="username"
          data-testid="reset-email"
          {...form.register('email')}
        />
      </FormField>
      <div className="flex items-center justify-between gap-2">
        <FormErrorMarker summary={summary} />
        <Button
          type="submit"
          className="ml-auto"
          disabled={!summary.canSubmit || mutation.isPending}
          data-testid="reset-submit"
        >
          <MailIcon />
          {t('reset.submit')}
        </Button>
      </div>
      <Link to="/login" className="text-sm text-primary hover:underline" data-testid="back-to-login">
        {t('reset.back')}
      </Link>
    </form>
  );
}
