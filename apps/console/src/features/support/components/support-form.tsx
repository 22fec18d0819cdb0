import { type FieldRules, rule } from '@iot/domain';
import { SendIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input, Textarea } from '../../../components/ui/input';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import { type SupportInput, useSendSupport } from '../api/send-support';

const RULES: FieldRules = {
  subject: ['required', rule.maxLength(200)],
  message: ['required', rule.maxLength(5000)],
};

export function SupportForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const mutation = useSendSupport();
  const { form, summary } = useDomainForm<SupportInput>({ subject: '', message: '' }, RULES);
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(values, {
      onSuccess: () => {
        notifySuccess(t('support.sent'));
        onDone();
      },
    }),
  );
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate data-testid="support-form">
      <FormField
        name="subject"
        label={t('support.subject')}
        required
        summary={summary}
        testId="support-subject"
      >
        <Input id="subject" data-testid="support-subject" {...form.register('subject')} />
      </FormField>
      <FormField
        name="message"
        label={t('support.message')}
        required
        summary={summary}
        testId="support-message"
      >
        <Textarea id="message" rows={6} data-testid="support-message" {...form.register('message')} />
      </FormField>
      <div className="flex items-center justify-between gap-2">
        <FormErrorMarker summary={summary} />
        <Button
          type="submit"
          className="ml-auto"
          disabled={!summary.canSubmit || mutation.isPending}
          data-testid="support-submit"
        >
          <SendIcon />
          {t('support.send')}
        </Button>
      </div>
    </form>
  );
}
