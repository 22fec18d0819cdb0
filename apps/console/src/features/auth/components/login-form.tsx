import { FORM_RULES } from '@iot/domain';
import { LogInIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { isUnderLogin } from '../../../lib/guards';
import { readRedirectTo } from '../../../lib/session';
import { useDomainForm } from '../../../lib/use-domain-form';
import { useLogin } from '../api/login';

const RULES = FORM_RULES.login;

export function LoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLogin();
  const { form, summary } = useDomainForm<{ email: string; password: string }>(
    { email: '', password: '' },
    RULES,
  );
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await login.mutateAsync(values);
    } catch {
      return; // the API client has shown the toast
    }
    const target = readRedirectTo();
    navigate(target && !isUnderLogin(target) && target !== '/' ? target : '/dashboard', { replace: true });
  });
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate data-testid="login-form">
      <div>
        <h1 className="text-2xl font-semibold">{t('login.title')}</h1>
        <p className="text-sm text-muted-foreground">{t('login.subtitle')}</p>
      </div>
      <FormField name="email" label={t('login.email')} required summary={summary} testId="login-email">
        <Input
          id="email"
          type="email"
          autoComplete="username"
          data-testid="login-email"
          aria-invalid={!!summary.visibleErrors.email}
          {...form.register('email')}
        />
      </FormField>
      <FormField
        name="password"
        label={t('login.password')}
        required
        summary={summary}
        testId="login-password"
      >
        <Input
          id="password"
          type="password"
          autoComplete="current-password"
          data-testid="login-password"
          aria-invalid={!!summary.visibleErrors.password}
          {...form.register('password')}
        />
      </FormField>
      <div className="flex items-center justify-between gap-2">
        <FormErrorMarker summary={summary} />
        <Button
          type="submit"
          className="ml-auto"
          disabled={!summary.canSubmit || login.isPending}
          data-testid="login-submit"
        >
          <LogInIcon />
          {t('login.submit')}
        </Button>
      </div>
      <div className="flex justify-between text-sm">
        <Link to="/login/reset" className="text-primary hover:underline" data-testid="login-forgot">
          {t('login.forgot')}
        </Link>
        <Link
          to="/create-account"
          className="text-primary hover:underline"
          data-testid="login-create-account"
        >
          {t('login.create-account')}
        </Link>
      </div>
    </form>
  );
}
