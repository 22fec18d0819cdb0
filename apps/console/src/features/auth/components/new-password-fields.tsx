import { FORM_RULES } from '@iot/domain';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import type { FormSummary } from '../../../lib/form-state';

export interface NewPasswordValues {
  password: string;
  password_confirmation: string;
}

export const NEW_PASSWORD_RULES = FORM_RULES.resetPassword;

export function NewPasswordFields({
  form,
  summary,
}: {
  form: UseFormReturn<NewPasswordValues>;
  summary: FormSummary;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FormField
        name="password"
        label={t('reset.new-password')}
        required
        summary={summary}
        testId="new-password"
      >
        <Input
          id="password"
          type="password"
          autoComplete="new-password"
          data-testid="new-password"
          {...form.register('password', { deps: ['password_confirmation'] })}
        />
      </FormField>
      <FormField
        name="password_confirmation"
        label={t('reset.confirm-password')}
        required
        summary={summary}
        testId="new-password-confirmation"
      >
        <Input
          id="password_confirmation"
          type="password"
          autoComplete="new-password"
          data-testid="new-password-confirmation"
          {...form.register('password_confirmation')}
        />
      </FormField>
    </>
  );
}
