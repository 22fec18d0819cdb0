import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { formatNumber } from '../../../lib/format';
import type { Device } from '../../../types/device';
import { useDeviceRules } from '../api/get-device-rules';
import { useDeleteRule } from '../api/save-rule';
import { useVirtualFields } from '../api/virtual-fields';
import { deviceFieldOptions } from '../device-fields';
import { RANGE_OPERATORS } from '../rule-form';
import type { Rule } from '../types';
import { EditableListDrawer } from './editable-list-drawer';
import { RuleEditor } from './rule-editor';
import { useEditableList } from './use-editable-list';

/** The device's rules and notifications: a list, and the editor of one rule (read-only without the role). */
export function RulesDrawer({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const details = useDeviceRules(device.id);
  const virtual = useVirtualFields(device.id);
  const remove = useDeleteRule(device.id);
  const list = useEditableList<Rule>({
    remove,
    confirmDelete: (r) => ({
      title: t('rules.delete-title'),
      message: t('rules.delete-message', { name: r.name }),
      testId: 'rule-delete-confirm',
    }),
  });
  const fields = deviceFieldOptions(details.data, virtual.data ?? []);
  const fieldName = (f: string | null) => fields.find((o) => o.value === f)?.label ?? f ?? '';
  const n = (v: number | null) => (v === null ? '' : formatNumber(v, i18n.language));

  if (list.editing !== null) {
    return (
      <RuleEditor
        deviceId={device.id}
        rule={list.editing === 'new' ? null : list.editing}
        fields={fields}
        readOnly={!list.editable}
        onDone={list.closeEditor}
      />
    );
  }

  const condition = (r: Rule) => {
    if (r.trigger === 'click') return t('rules.summary.click', { type: r.click_type ?? 1 });
    if (r.trigger === 'no_data') return t('rules.summary.no-data', { seconds: r.time_window_seconds });
    const op = r.operator ?? '';
    const target = RANGE_OPERATORS.includes(op) ? `${n(r.range_min)} … ${n(r.range_max)}` : n(r.value);
    return `${fieldName(r.data_field)} ${t(`rules.operators.${op as 'lte'}`, op)} ${target}`;
  };

  return (
    <EditableListDrawer
      testId="rules"
      testIdPrefix="rule"
      title={t('rules.title')}
      addLabel={t('rules.add')}
      items={details.data?.rules ?? []}
      isPending={details.isPending}
      emptyText={t('rules.empty')}
      emptyTestId="rules-empty"
      editable={list.editable}
      readOnlyNotice={{ text: t('rules.read-only'), testId: 'rules-read-only' }}
      viewLabel={t('rules.view')}
      deletePending={remove.isPending}
      onAdd={list.startNew}
      onEdit={list.startEdit}
      onDelete={(r) => void list.askAndDelete(r)}
      renderItem={(r) => (
        <>
          <p className="font-medium" data-testid="rule-name">
            {r.name}
            {!r.is_active && (
              <Badge variant="secondary" className="ml-2">
                {t('rules.inactive')}
              </Badge>
            )}
          </p>
          <p className="text-sm" data-testid="rule-condition">
            {condition(r)}
          </p>
          <div className="mt-1 flex flex-wrap gap-1">
            {r.actions.map((a) => (
              <Badge key={a.id ?? a.channel} variant="outline" data-testid="rule-action-badge">
                {t(`rules.channels.${a.channel as 'email'}`, a.channel)}
              </Badge>
            ))}
          </div>
        </>
      )}
    />
  );
}
