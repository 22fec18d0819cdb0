import { EyeIcon, PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { SheetBody } from '../../../components/ui/sheet';
import { useCurrentUser } from '../../../lib/auth';
import { formatNumber } from '../../../lib/format';
import { canEdit } from '../../../lib/roles';
import type { Device } from '../../../types/device';
import { useDeviceRules } from '../api/get-device-rules';
import { useDeleteRule } from '../api/save-rule';
import { useVirtualFields } from '../api/virtual-fields';
import { deviceFieldOptions } from '../device-fields';
import { RANGE_OPERATORS } from '../rule-form';
import type { Rule } from '../types';
import { RuleEditor } from './rule-editor';

/** The device's rules and notifications: a list, and the editor of one rule (read-only without the role). */
export function RulesDrawer({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const editor = canEdit(useCurrentUser()?.roles);
  const details = useDeviceRules(device.id);
  const virtual = useVirtualFields(device.id);
  const remove = useDeleteRule(device.id);
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const fields = deviceFieldOptions(details.data, virtual.data ?? []);
  const rules = details.data?.rules ?? [];
  const fieldName = (f: string | null) => fields.find((o) => o.value === f)?.label ?? f ?? '';
  const n = (v: number | null) => (v === null ? '' : formatNumber(v, i18n.language));

  if (editing !== null) {
    return (
      <RuleEditor
        deviceId={device.id}
        rule={editing === 'new' ? null : editing}
        fields={fields}
        readOnly={!editor}
        onDone={() => setEditing(null)}
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

  const confirmDelete = async (r: Rule) => {
    const ok = await overlay.confirm({
      title: t('rules.delete-title'),
      message: t('rules.delete-message', { name: r.name }),
      confirmLabel: t('common.delete'),
      destructive: true,
      testId: 'rule-delete-confirm',
    });
    if (ok) remove.mutate(r.id);
  };

  return (
    <SheetBody className="flex flex-col gap-3 pb-4" data-testid="rules" data-read-only={!editor}>
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{t('rules.title')}</h3>
        {editor && (
          <Button size="sm" onClick={() => setEditing('new')} data-testid="rule-add">
            <PlusIcon />
            {t('rules.add')}
          </Button>
        )}
      </div>
      {!editor && (
        <p className="text-xs text-muted-foreground" data-testid="rules-read-only">
          {t('rules.read-only')}
        </p>
      )}
      {rules.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="rules-empty">
          {details.isPending ? t('common.loading') : t('rules.empty')}
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {rules.map((r) => (
            <li key={r.id} className="rounded-lg border p-3" data-testid={`rule-${r.id}`}>
              <div className="flex items-start justify-between gap-2">
                <div className="min-w-0">
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
                </div>
                <div className="flex shrink-0 gap-1">
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={editor ? t('common.edit') : t('rules.view')}
                    onClick={() => setEditing(r)}
                    data-testid={`rule-edit-${r.id}`}
                  >
                    {editor ? <PencilIcon /> : <EyeIcon />}
                  </Button>
                  {editor && (
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={t('common.delete')}
                      disabled={remove.isPending}
                      onClick={() => void confirmDelete(r)}
                      data-testid={`rule-delete-${r.id}`}
                    >
                      <Trash2Icon className="text-destructive" />
                    </Button>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </SheetBody>
  );
}
