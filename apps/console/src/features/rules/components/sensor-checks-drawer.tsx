import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { formatNumber } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import type { Device } from '../../../types/device';
import { useDeviceRules } from '../api/get-device-rules';
import { useDeleteSensorCheck, useSaveSensorCheck, useSensorChecks } from '../api/sensor-checks';
import { useVirtualFields } from '../api/virtual-fields';
import { deviceFieldOptions, type FieldOption } from '../device-fields';
import {
  boundsFor,
  checkToForm,
  formToCheck,
  type SensorCheckFormValues,
  sensorCheckRules,
} from '../sensor-check-form';
import { SENSOR_CHECK_KINDS, type SensorCheck } from '../types';
import { CheckboxField } from './checkbox-field';
import { EditableListDrawer } from './editable-list-drawer';
import { ItemEditorForm } from './item-editor-form';
import { useEditableList } from './use-editable-list';

function SensorCheckEditor({
  deviceId,
  check,
  fields,
  readOnly,
  onDone,
}: {
  deviceId: number;
  check: SensorCheck | null;
  fields: readonly FieldOption[];
  readOnly: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveSensorCheck(deviceId);
  const { form, summary } = useDomainForm<SensorCheckFormValues>(checkToForm(check), sensorCheckRules);
  const values = useWatch({ control: form.control }) as SensorCheckFormValues;
  const onSubmit = form.handleSubmit((v) =>
    save.mutate(
      { id: check?.id ?? null, body: formToCheck(v) },
      {
        onSuccess: () => {
          notifySuccess(t('checks.saved'));
          onDone();
        },
      },
    ),
  );
  const fieldSelect = (required: boolean) => (
    <FormField
      name="data_field"
      label={t('checks.data-field')}
      summary={summary}
      required={required}
      testId="check-data_field"
    >
      <NativeSelect
        id="data_field"
        data-testid="check-data_field"
        {...form.register('data_field', {
          // A newly chosen field brings its plausible bounds (the domain's fieldBounds).
          onChange: (e: { target: { value: string } }) => {
            if (form.getValues('kind') !== 'implausible_value' || !e.target.value) return;
            const bounds = boundsFor(e.target.value);
            form.setValue('min_value', bounds.min_value, { shouldValidate: true });
            form.setValue('max_value', bounds.max_value, { shouldValidate: true });
          },
        })}
      >
        <option value="">{required ? t('rules.choose') : t('checks.battery-default-field')}</option>
        {fields.map((f) => (
          <option key={f.value} value={f.value}>
            {f.label}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
  return (
    <ItemEditorForm
      testId="check-form"
      testIdPrefix="check"
      readOnly={readOnly}
      summary={summary}
      submitDisabled={save.isPending}
      onSubmit={onSubmit}
      onCancel={onDone}
    >
      <FormField name="kind" label={t('checks.kind')} summary={summary} required>
        <NativeSelect id="kind" data-testid="check-kind" {...form.register('kind')}>
          {SENSOR_CHECK_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`alarms.check.${k}`)}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      {values.kind === 'no_data' && (
        <FormField
          name="max_silence_seconds"
          label={t('checks.silence')}
          summary={summary}
          required
          testId="check-silence"
        >
          <Input
            id="max_silence_seconds"
            type="number"
            data-testid="check-silence"
            {...form.register('max_silence_seconds')}
          />
        </FormField>
      )}
      {values.kind === 'implausible_value' && (
        <>
          {fieldSelect(true)}
          <div className="grid grid-cols-2 gap-3">
            <FormField name="min_value" label={t('checks.min')} summary={summary} testId="check-min">
              <Input id="min_value" data-testid="check-min" {...form.register('min_value')} />
            </FormField>
            <FormField name="max_value" label={t('checks.max')} summary={summary} testId="check-max">
              <Input id="max_value" data-testid="check-max" {...form.register('max_value')} />
            </FormField>
          </div>
        </>
      )}
      {values.kind === 'battery_low' && (
        <>
          <FormField name="level" label={t('checks.level')} summary={summary} required testId="check-level">
            <Input
              id="level"
              type="number"
              min={0}
              max={100}
              data-testid="check-level"
              {...form.register('level')}
            />
          </FormField>
          {fieldSelect(false)}
        </>
      )}
      <CheckboxField
        control={form.control}
        name="is_active"
        id="check-active"
        label={t('rules.active')}
        disabled={readOnly}
        testId="check-is_active"
      />
    </ItemEditorForm>
  );
}

/** The device's sensor checks: no data for a time, implausible value, battery below a level. */
export function SensorChecksDrawer({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const checks = useSensorChecks(device.id);
  const details = useDeviceRules(device.id);
  const virtual = useVirtualFields(device.id);
  const remove = useDeleteSensorCheck(device.id);
  const list = useEditableList<SensorCheck>({
    remove,
    confirmDelete: () => ({
      title: t('checks.delete-title'),
      message: t('checks.delete-message'),
      testId: 'check-delete-confirm',
    }),
  });
  const fields = deviceFieldOptions(details.data, virtual.data ?? []);
  const n = (v: number | null) => (v === null ? '–' : formatNumber(v, i18n.language));

  if (list.editing !== null) {
    return (
      <SensorCheckEditor
        deviceId={device.id}
        check={list.editing === 'new' ? null : list.editing}
        fields={fields}
        readOnly={!list.editable}
        onDone={list.closeEditor}
      />
    );
  }

  const describe = (c: SensorCheck) => {
    if (c.kind === 'no_data') return t('checks.summary.no_data', { seconds: c.max_silence_seconds ?? 0 });
    if (c.kind === 'battery_low')
      return t('checks.summary.battery_low', { level: n(c.level ?? c.min_value) });
    return t('checks.summary.implausible_value', {
      field: c.data_field ?? '',
      min: n(c.min_value),
      max: n(c.max_value),
    });
  };

  return (
    <EditableListDrawer
      testId="sensor-checks"
      testIdPrefix="check"
      title={t('checks.title')}
      addLabel={t('checks.add')}
      items={checks.data ?? []}
      isPending={checks.isPending}
      emptyText={t('checks.empty')}
      editable={list.editable}
      deletePending={remove.isPending}
      onAdd={list.startNew}
      onEdit={list.startEdit}
      onDelete={(c) => void list.askAndDelete(c)}
      renderItem={(c) => (
        <>
          <p className="font-medium">
            {t(`alarms.check.${c.kind as 'no_data'}`, c.kind)}
            {!c.is_active && (
              <Badge variant="secondary" className="ml-2">
                {t('rules.inactive')}
              </Badge>
            )}
          </p>
          <p className="text-sm">{describe(c)}</p>
        </>
      )}
    />
  );
}
