import { type FieldRules, FORM_RULES, INTERFACE_LANGUAGES } from '@iot/domain';
import { SaveIcon } from 'lucide-react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { SheetBody, SheetFooter } from '../../../components/ui/sheet';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import type { ManagedUser } from '../../../types/api';
import { useCreateUser } from '../api/create-user';
import { useUpdateUser } from '../api/update-user';

interface UserFormValues {
  name: string;
  email: string;
  locale: string;
  password: string;
  password_confirmation: string;
}

const CREATE_RULES: FieldRules = {
  ...FORM_RULES.user,
  locale: ['required'],
  password: ['required', ...FORM_RULES.user.password],
  password_confirmation: ['required', ...FORM_RULES.user.password_confirmation],
};

/** On edit the password is optional (empty keeps the current one); once typed, it must be confirmed. */
const EDIT_RULES = (values: Readonly<Record<string, unknown>>): FieldRules => ({
  ...FORM_RULES.user,
  locale: ['required'],
  password_confirmation: values.password
    ? ['required', ...FORM_RULES.user.password_confirmation]
    : FORM_RULES.user.password_confirmation,
});

/** Add / edit user drawer body (main users). */
export function UserForm({ user, onDone }: { user: ManagedUser | null; onDone: () => void }) {
  const { t } = useTranslation();
  const create = useCreateUser();
  const update = useUpdateUser();
  const { form, summary } = useDomainForm<UserFormValues>(
    {
      name: user?.name ?? '',
      email: user?.email ?? '',
      locale: user?.locale ?? 'de',
      password: '',
      password_confirmation: '',
    },
    user ? EDIT_RULES : CREATE_RULES,
  );
  const pending = create.isPending || update.isPending;
  const onSubmit = form.handleSubmit((values) => {
    const done = () => {
      notifySuccess(t('users.saved'));
      onDone();
    };
    if (user) {
      const { password, password_confirmation, ...rest } = values;
      update.mutate(
        { id: user.id, ...rest, ...(password ? { password, password_confirmation } : {}) },
        { onSuccess: done },
      );
    } else {
      create.mutate(values, { onSuccess: done });
    }
  });
  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-1 flex-col overflow-hidden"
      noValidate
      data-testid="user-form"
    >
      <SheetBody className="flex flex-col gap-4 py-2">
        <FormField name="name" label={t('users.name')} required summary={summary} testId="user-name">
          <Input id="name" data-testid="user-name" {...form.register('name')} />
        </FormField>
        <FormField name="email" label={t('users.email')} required summary={summary} testId="user-email">
          <Input id="email" type="email" data-testid="user-email" {...form.register('email')} />
        </FormField>
        <FormField name="locale" label={t('users.language')} required summary={summary} testId="user-locale">
          <Controller
            control={form.control}
            name="locale"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange}>
                <SelectTrigger id="locale" data-testid="user-locale">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {INTERFACE_LANGUAGES.map((lang) => (
                    <SelectItem key={lang} value={lang}>
                      {t(`language.${lang}`)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </FormField>
        <p className="text-xs text-muted-foreground">{t('message.language-after-login')}</p>
        <FormField
          name="password"
          label={t('users.password')}
          required={!user}
          summary={summary}
          testId="user-password"
        >
          <Input
            id="password"
            type="password"
            autoComplete="new-password"
            data-testid="user-password"
            {...form.register('password', { deps: ['password_confirmation'] })}
          />
        </FormField>
        <FormField
          name="password_confirmation"
          label={t('users.password-confirmation')}
          required={!user}
          summary={summary}
          testId="user-password-confirmation"
        >
          <Input
            id="password_confirmation"
            type="password"
            autoComplete="new-password"
            data-testid="user-password-confirmation"
            {...form.register('password_confirmation')}
          />
        </FormField>
      </SheetBody>
      <SheetFooter className="items-center">
        <FormErrorMarker summary={summary} className="mr-auto" />
        <Button variant="outline" onClick={onDone} data-testid="user-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={!summary.canSubmit || pending} data-testid="user-submit">
          <SaveIcon />
          {t('common.save')}
        </Button>
      </SheetFooter>
    </form>
  );
}
