import { AGGREGATION_FUNCTIONS } from '@iot/domain';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { FormField } from '../../../components/ui/form-field';
import { Input, Textarea } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { ApiError } from '../../../lib/api-error';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import type { Device } from '../../../types/device';
import type { TranslationKey } from '../../../types/translation-key';
import { useDeviceRules } from '../api/get-device-rules';
import {
  previewVirtualField,
  useDeleteVirtualField,
  useSaveVirtualField,
  useVirtualFields,
} from '../api/virtual-fields';
import type { VirtualField, VirtualPreview } from '../types';
import {
  formToVirtualField,
  VIRTUAL_FIELD_RULES,
  type VirtualFieldFormValues,
  virtualFieldToForm,
} from '../virtual-field-form';
import { CheckboxField } from './checkbox-field';
import { EditableListDrawer } from './editable-list-drawer';
import { ItemEditorForm } from './item-editor-form';
import { useEditableList } from './use-editable-list';

/** The preview waits for a pause in typing, so the API is not asked on every key stroke. */
const PREVIEW_DEBOUNCE_MS = 400;

type PreviewState =
  | { kind: 'idle' }
  | { kind: 'ok'; preview: VirtualPreview }
  | { kind: 'error'; code: number | undefined; problem?: string };

function usePreview(
  deviceId: number,
  fieldId: number | null,
  values: VirtualFieldFormValues,
  sample: Record<string, unknown>,
) {
  const [state, setState] = useState<PreviewState>({ kind: 'idle' });
  const body = formToVirtualField(values);
  const key = JSON.stringify([body, sample]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the serialised key stands for body and sample
  useEffect(() => {
    if (!body.formula) {
      setState({ kind: 'idle' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      previewVirtualField(
        {
          ...body,
          name: body.name || 'preview',
          data_fields: sample,
          device_id: deviceId,
          ...(fieldId === null ? {} : { field_id: fieldId }),
        },
        controller.signal,
      )
        .then((preview) => setState({ kind: 'ok', preview }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ kind: 'error', code: error instanceof ApiError ? error.code : undefined });
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, deviceId, fieldId]);
  return state;
}

function VirtualFieldEditor({
  device,
  field,
  readOnly,
  sample,
  onDone,
}: {
  device: Device;
  field: VirtualField | null;
  readOnly: boolean;
  sample: Record<string, unknown>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveVirtualField(device.id);
  const { form, summary } = useDomainForm<VirtualFieldFormValues>(
    virtualFieldToForm(field),
    VIRTUAL_FIELD_RULES,
  );
  const values = useWatch({ control: form.control }) as VirtualFieldFormValues;
  const preview = usePreview(device.id, field?.id ?? null, values, sample);
  const apiText = (code: number | undefined) =>
    code === undefined ? t('api.response-0' as TranslationKey) : t(`api.response-${code}` as TranslationKey);

  const onSubmit = form.handleSubmit((v) =>
    save.mutate(
      { id: field?.id ?? null, body: formToVirtualField(v) },
      {
        onSuccess: () => {
          notifySuccess(t('virtual.saved'));
          onDone();
        },
      },
    ),
  );

  return (
    <ItemEditorForm
      testId="virtual-field-form"
      testIdPrefix="virtual"
      readOnly={readOnly}
      summary={summary}
      submitDisabled={save.isPending}
      onSubmit={onSubmit}
      onCancel={onDone}
    >
      <div className="grid grid-cols-[2fr_1fr] gap-3">
        <FormField name="name" label={t('virtual.name')} summary={summary} required testId="virtual-name">
          <Input id="name" data-testid="virtual-name" {...form.register('name')} />
        </FormField>
        <FormField name="unit" label={t('virtual.unit')} summary={summary}>
          <Input id="unit" data-testid="virtual-unit" {...form.register('unit')} />
        </FormField>
      </div>
      <FormField name="formula" label={t('virtual.formula')} summary={summary}>
        <Textarea
          id="formula"
          className="font-mono"
          data-testid="virtual-formula"
          {...form.register('formula')}
        />
      </FormField>
      <p className="text-xs text-muted-foreground">
        {t('virtual.inputs', { list: Object.keys(sample).sort().join(', ') || '–' })}
      </p>
      <div
        className="rounded-md border bg-muted/40 p-2 text-sm"
        data-testid="virtual-preview"
        data-state={preview.kind}
      >
        <span className="text-muted-foreground">{t('virtual.preview')}: </span>
        {preview.kind === 'idle' && '–'}
        {preview.kind === 'ok' &&
          (preview.preview.error ? (
            <span className="text-amber-600" data-testid="virtual-preview-warning">
              {t(`virtual.preview-error.${preview.preview.error as 'missing_input'}`, preview.preview.error)}
            </span>
          ) : (
            <strong data-testid="virtual-preview-value">
              {String(preview.preview.value)}
              {values.unit ? ` ${values.unit}` : ''}
            </strong>
          ))}
        {preview.kind === 'error' && (
          <span className="text-destructive" data-testid="virtual-preview-error" data-code={preview.code}>
            {apiText(preview.code)}
          </span>
        )}
      </div>
      <FormField name="function" label={t('virtual.function')} summary={summary}>
        <NativeSelect id="function" data-testid="virtual-function" {...form.register('function')}>
          <option value="">{t('virtual.function-none')}</option>
          {AGGREGATION_FUNCTIONS.map((f) => (
            <option key={f} value={f}>
              {t(`virtual.functions.${f}`)}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField name="mapping" label={t('virtual.mapping')} summary={summary}>
        <Textarea
          id="mapping"
          placeholder={'0=closed\n1=open\n30..=hot'}
          data-testid="virtual-mapping"
          {...form.register('mapping')}
        />
      </FormField>
      <CheckboxField
        control={form.control}
        name="store"
        id="virtual-store"
        label={t('virtual.store')}
        disabled={readOnly}
        testId="virtual-store"
      />
    </ItemEditorForm>
  );
}

/** The device's virtual data fields: list and editor with a live preview on the latest values. */
export function VirtualFieldsDrawer({ device }: { device: Device }) {
  const { t } = useTranslation();
  const virtual = useVirtualFields(device.id);
  const details = useDeviceRules(device.id);
  const remove = useDeleteVirtualField(device.id);
  const list = useEditableList<VirtualField>({
    remove,
    confirmDelete: (field) => ({
      title: t('virtual.delete-title'),
      message: t('virtual.delete-message', { name: field.name }),
      testId: 'virtual-delete-confirm',
    }),
  });
  // The preview computes on the device's current values (virtual ones included, for chained fields).
  const sample = details.data?.data ?? device.data ?? {};

  if (list.editing !== null) {
    return (
      <VirtualFieldEditor
        device={device}
        field={list.editing === 'new' ? null : list.editing}
        readOnly={!list.editable}
        sample={sample}
        onDone={list.closeEditor}
      />
    );
  }

  return (
    <EditableListDrawer
      testId="virtual-fields"
      testIdPrefix="virtual"
      title={t('virtual.title')}
      addLabel={t('virtual.add')}
      items={virtual.data ?? []}
      isPending={virtual.isPending}
      emptyText={t('virtual.empty')}
      editable={list.editable}
      deletePending={remove.isPending}
      onAdd={list.startNew}
      onEdit={list.startEdit}
      onDelete={(f) => void list.askAndDelete(f)}
      renderItem={(f) => (
        <>
          <p className="font-medium">
            {f.name}
            {f.unit && <span className="text-muted-foreground"> [{f.unit}]</span>}
            {f.store && (
              <Badge variant="outline" className="ml-2">
                {t('virtual.stored')}
              </Badge>
            )}
          </p>
          <p className="font-mono text-xs break-all">{f.formula}</p>
          {f.function && (
            <p className="text-xs text-muted-foreground">
              {t(`virtual.functions.${f.function as 'sum_up'}`, f.function)}
            </p>
          )}
        </>
      )}
    />
  );
}
