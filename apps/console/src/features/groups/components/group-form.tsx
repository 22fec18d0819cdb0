import { FORM_RULES } from '@iot/domain';
import { SaveIcon } from 'lucide-react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { CheckboxList } from '../../../components/ui/checkbox-list';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { SheetBody, SheetFooter } from '../../../components/ui/sheet';
import { useDevices } from '../../../lib/devices/get-devices';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import { useSaveGroup } from '../api/save-group';
import type { Group } from '../types';

interface GroupFormValues {
  name: string;
  description: string;
  device_ids: number[];
}

/** Add / edit group drawer body: name, description and the company's devices (ROLE_ADMIN, ROLE_MAINUSER). */
export function GroupForm({ group, onDone }: { group: Group | null; onDone: () => void }) {
  const { t } = useTranslation();
  const devices = useDevices();
  const save = useSaveGroup();
  const { form, summary } = useDomainForm<GroupFormValues>(
    { name: group?.name ?? '', description: group?.description ?? '', device_ids: group?.device_ids ?? [] },
    FORM_RULES.group,
  );
  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      {
        id: group?.id ?? null,
        name: values.name.trim(),
        description: values.description.trim() || null,
        device_ids: values.device_ids,
      },
      {
        onSuccess: () => {
          notifySuccess(t('groups.saved'));
          onDone();
        },
      },
    ),
  );
  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-1 flex-col overflow-hidden"
      noValidate
      data-testid="group-form"
    >
      <SheetBody className="flex flex-col gap-4 py-2">
        <FormField name="name" label={t('groups.name')} required summary={summary} testId="group-name">
          <Input id="name" data-testid="group-name" {...form.register('name')} />
        </FormField>
        <FormField name="description" label={t('groups.description')} summary={summary}>
          <Input id="description" data-testid="group-description" {...form.register('description')} />
        </FormField>
        <FormField name="device_ids" label={t('groups.devices')} summary={summary}>
          <Controller
            control={form.control}
            name="device_ids"
            render={({ field }) => (
              <CheckboxList
                options={(devices.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
                value={field.value.map(String)}
                onChange={(ids) => field.onChange(ids.map(Number))}
                testId="group-devices"
              />
            )}
          />
        </FormField>
      </SheetBody>
      <SheetFooter className="items-center">
        <FormErrorMarker summary={summary} className="mr-auto" />
        <Button variant="outline" onClick={onDone} data-testid="group-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={!summary.canSubmit || save.isPending} data-testid="group-submit">
          <SaveIcon />
          {t('common.save')}
        </Button>
      </SheetFooter>
    </form>
  );
}
