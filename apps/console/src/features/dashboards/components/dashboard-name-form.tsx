import { FORM_RULES } from '@iot/domain';
import { SaveIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { useDomainForm } from '../../../lib/use-domain-form';

/** The "edit dashboard" dialog body: the dashboard's name (create or rename). */
export function DashboardNameForm({
  name,
  pending,
  onSubmit,
  onCancel,
}: {
  name: string;
  pending: boolean;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  // A dashboard name follows the same rule as other names (required, at most 255 characters).
  const { form, summary } = useDomainForm<{ name: string }>({ name }, { name: FORM_RULES.group.name });
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      data-testid="dashboard-name-form"
      onSubmit={form.handleSubmit((values) => onSubmit(values.name.trim()))}
    >
      <FormField name="name" label={t('dashboards.name')} required summary={summary} testId="dashboard-name">
        <Input id="name" autoFocus data-testid="dashboard-name" {...form.register('name')} />
      </FormField>
      <div className="flex items-center justify-end gap-2">
        <FormErrorMarker summary={summary} className="mr-auto" />
        <Button variant="outline" onClick={onCancel} data-testid="dashboard-name-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={!summary.canSubmit || pending} data-testid="dashboard-name-submit">
          <SaveIcon />
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}
