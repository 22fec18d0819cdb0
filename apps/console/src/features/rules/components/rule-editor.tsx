import { CLICK_TYPES } from '@iot/domain';
import { PlusIcon } from 'lucide-react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import { useSaveRule } from '../api/save-rule';
import type { FieldOption } from '../device-fields';
import {
  actionErrors,
  emptyConfig,
  formToRule,
  OPERATORS,
  RANGE_OPERATORS,
  RULE_TRIGGERS,
  type RuleFormValues,
  ruleFormRules,
  ruleToForm,
  WEEKDAYS,
} from '../rule-form';
import type { Rule } from '../types';
import { ActionEditor } from './action-editor';
import { CheckboxField } from './checkbox-field';
import { ItemEditorForm } from './item-editor-form';

/**
 * One rule's form (ROLE_ADMIN and ROLE_MAINUSER; read-only for others): condition, schedule, limits,
 * click settings and actions, checked with the domain's rules; saved with PUT /core/devices/{id}.
 */
export function RuleEditor({
  deviceId,
  rule,
  fields,
  readOnly,
  onDone,
}: {
  deviceId: number;
  rule: Rule | null;
  fields: readonly FieldOption[];
  readOnly: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveRule(deviceId);
  const { form, summary } = useDomainForm<RuleFormValues>(ruleToForm(rule), ruleFormRules);
  const values = useWatch({ control: form.control }) as RuleFormValues;
  const actionsInvalid = (values.actions ?? []).some((a) => Object.keys(actionErrors(a)).length > 0);
  const range = RANGE_OPERATORS.includes(values.operator ?? '');

  const onSubmit = form.handleSubmit((v) =>
    save.mutate(formToRule(v, rule?.id ?? null), {
      onSuccess: () => {
        notifySuccess(t('rules.saved'));
        onDone();
      },
    }),
  );
  const input = (name: keyof RuleFormValues, label: string, type = 'text', required = false) => (
    <FormField name={name} label={label} summary={summary} required={required} testId={`rule-${name}`}>
      <Input id={name} type={type} data-testid={`rule-${name}`} {...form.register(name)} />
    </FormField>
  );

  return (
    <ItemEditorForm
      testId="rule-form"
      fieldsetTestId="rule-fieldset"
      testIdPrefix="rule"
      readOnly={readOnly}
      summary={summary}
      submitDisabled={actionsInvalid || save.isPending}
      onSubmit={onSubmit}
      onCancel={onDone}
    >
      {input('name', t('rules.name'), 'text', true)}
      <CheckboxField
        control={form.control}
        name="is_active"
        id="rule-active"
        label={t('rules.active')}
        disabled={readOnly}
        testId="rule-is_active"
      />
      <FormField name="trigger" label={t('rules.trigger')} summary={summary} required>
        <NativeSelect id="trigger" data-testid="rule-trigger" {...form.register('trigger')}>
          {RULE_TRIGGERS.map((tr) => (
            <option key={tr} value={tr}>
              {t(`rules.triggers.${tr}`)}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      {values.trigger === 'data' && (
        <>
          <FormField
            name="data_field"
            label={t('rules.data-field')}
            summary={summary}
            required
            testId="rule-data_field"
          >
            <NativeSelect id="data_field" data-testid="rule-data_field" {...form.register('data_field')}>
              <option value="">{t('rules.choose')}</option>
              {values.data_field && !fields.some((f) => f.value === values.data_field) && (
                <option value={values.data_field}>{values.data_field}</option>
              )}
              {fields.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField name="operator" label={t('rules.operator')} summary={summary} required>
            <NativeSelect id="operator" data-testid="rule-operator" {...form.register('operator')}>
              {OPERATORS.map((op) => (
                <option key={op} value={op}>
                  {t(`rules.operators.${op}`)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          {range ? (
            <div className="grid grid-cols-2 gap-3">
              {input('range_min', t('rules.range-min'), 'text', true)}
              {input('range_max', t('rules.range-max'), 'text', true)}
            </div>
          ) : (
            input('value', t('rules.value'), 'text', true)
          )}
        </>
      )}
      {values.trigger === 'click' && (
        <div className="grid grid-cols-2 gap-3">
          <FormField name="click_type" label={t('rules.click-type')} summary={summary} required>
            <NativeSelect id="click_type" data-testid="rule-click_type" {...form.register('click_type')}>
              {Object.entries(CLICK_TYPES).map(([name, value]) => (
                <option key={value} value={String(value)}>
                  {t(`rules.click.${name as keyof typeof CLICK_TYPES}`)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          {input('max_clicks', t('rules.max-clicks'), 'number')}
        </div>
      )}
      {input(
        'time_window_seconds',
        values.trigger === 'no_data' ? t('rules.silence-seconds') : t('rules.time-window'),
        'number',
        values.trigger === 'no_data',
      )}
      <div className="grid grid-cols-2 gap-3">
        {input('max_actions', t('rules.max-actions'), 'number')}
        {input('max_actions_period_seconds', t('rules.max-actions-period'), 'number')}
      </div>
      <section className="flex flex-col gap-2 rounded-lg border p-3">
        <CheckboxField
          control={form.control}
          name="schedule_enabled"
          id="rule-schedule"
          label={t('rules.schedule')}
          disabled={readOnly}
          testId="rule-schedule-enabled"
        />
        {values.schedule_enabled && (
          <FormField
            name="schedule"
            label={t('rules.schedule-window')}
            summary={summary}
            testId="rule-schedule"
          >
            <div className="grid grid-cols-2 gap-3">
              <Input
                type="time"
                aria-label={t('rules.schedule-start')}
                data-testid="rule-schedule-start"
                {...form.register('schedule.start')}
              />
              <Input
                type="time"
                aria-label={t('rules.schedule-end')}
                data-testid="rule-schedule-end"
                {...form.register('schedule.end')}
              />
            </div>
            <Controller
              control={form.control}
              name="schedule.weekdays"
              render={({ field }) => (
                <div className="flex flex-wrap gap-3" data-testid="rule-weekdays">
                  {WEEKDAYS.map((d) => (
                    <span key={d} className="flex items-center gap-1">
                      <Checkbox
                        id={`weekday-${d}`}
                        checked={field.value.includes(d)}
                        disabled={readOnly}
                        onCheckedChange={(v) =>
                          field.onChange(
                            v === true ? [...field.value, d] : field.value.filter((x) => x !== d),
                          )
                        }
                        data-testid={`rule-weekday-${d}`}
                      />
                      <Label htmlFor={`weekday-${d}`}>{t(`rules.weekday.${d as 1}`)}</Label>
                    </span>
                  ))}
                </div>
              )}
            />
          </FormField>
        )}
      </section>
      <Controller
        control={form.control}
        name="actions"
        render={({ field }) => (
          <section className="flex flex-col gap-2" data-testid="rule-actions">
            <h4 className="text-sm font-semibold">{t('rules.actions')}</h4>
            {field.value.map((action, i) => (
              <ActionEditor
                // Actions have no stable id before saving; the index is their identity in the form.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={i}
                action={action}
                index={i}
                onChange={(next) => field.onChange(field.value.map((a, j) => (j === i ? next : a)))}
                onRemove={() => field.onChange(field.value.filter((_, j) => j !== i))}
              />
            ))}
            {!readOnly && (
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="self-start"
                onClick={() =>
                  field.onChange([...field.value, { channel: 'email', config: emptyConfig('email') }])
                }
                data-testid="rule-add-action"
              >
                <PlusIcon />
                {t('rules.add-action')}
              </Button>
            )}
          </section>
        )}
      />
    </ItemEditorForm>
  );
}
