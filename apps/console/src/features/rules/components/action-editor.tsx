import { Trash2Icon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Input, Textarea } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { useCurrentUser } from '../../../lib/auth';
import { hasModule } from '../../../lib/guards';
import {
  ACTION_CHANNELS,
  actionErrors,
  emptyConfig,
  HTTP_METHODS,
  TASK_TYPES,
  TEXT_PLACEHOLDERS,
  VOICE_LANGUAGES,
} from '../rule-form';
import type { RuleAction } from '../types';
import { CommandFields } from './command-fields';
import { ConfigField } from './field-error';

/** One action of a rule: its channel and the channel's form, checked with the domain's rules. */
export function ActionEditor({
  action,
  index,
  onChange,
  onRemove,
}: {
  action: RuleAction;
  index: number;
  onChange: (action: RuleAction) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const farming = hasModule(useCurrentUser(), 'farming');
  const channels = ACTION_CHANNELS.filter((ch) => ch !== 'farming_task' || farming || action.channel === ch);
  // SMS and voice calls are the paid messaging module's: offered locked without it (issue #27).
  const paid = hasModule(useCurrentUser(), 'paid_messaging');
  const locked = (ch: string) => !paid && (ch === 'sms' || ch === 'voice_message');
  const errors = actionErrors(action);
  const c = action.config;
  const id = `rule-action-${index}`;
  const set = (key: string, value: unknown) => onChange({ ...action, config: { ...c, [key]: value } });
  const str = (key: string) => (c[key] === undefined || c[key] === null ? '' : String(c[key]));
  const text = (key: string, label: string, multiline = false) => (
    <ConfigField label={label} error={errors[key]} testId={`${id}-${key}`}>
      {multiline ? (
        <Textarea value={str(key)} onChange={(e) => set(key, e.target.value)} data-testid={`${id}-${key}`} />
      ) : (
        <Input value={str(key)} onChange={(e) => set(key, e.target.value)} data-testid={`${id}-${key}`} />
      )}
    </ConfigField>
  );
  const placeholders = (
    <p className="text-xs text-muted-foreground" data-testid={`${id}-placeholders`}>
      {t('rules.placeholders', { list: TEXT_PLACEHOLDERS.join(' ') })}
    </p>
  );

  return (
    <div className="flex flex-col gap-3 rounded-lg border p-3" data-testid={id} data-channel={action.channel}>
      <div className="flex items-end gap-2">
        <ConfigField label={t('rules.channel')} testId={`${id}-channel`}>
          <NativeSelect
            value={action.channel}
            onChange={(e) => onChange({ channel: e.target.value, config: emptyConfig(e.target.value) })}
            data-testid={`${id}-channel`}
          >
            {channels.map((ch) => (
              <option
                key={ch}
                value={ch}
                disabled={locked(ch)}
                title={locked(ch) ? t('rules.locked-paid-messaging') : undefined}
              >
                {locked(ch) ? `🔒 ${t(`rules.channels.${ch}`)}` : t(`rules.channels.${ch}`)}
              </option>
            ))}
          </NativeSelect>
        </ConfigField>
        {locked(action.channel) && (
          <p className="text-xs text-destructive" data-testid={`${id}-locked`}>
            {t('rules.locked-paid-messaging')}
          </p>
        )}
        <Button
          type="button"
          size="icon"
          variant="ghost"
          className="ml-auto"
          aria-label={t('rules.remove-action')}
          onClick={onRemove}
          data-testid={`${id}-remove`}
        >
          <Trash2Icon className="text-destructive" />
        </Button>
      </div>
      {action.channel === 'email' && (
        <>
          {text('recipient', t('rules.email.recipient'))}
          {text('cc', t('rules.email.cc'))}
          {text('subject', t('rules.email.subject'))}
          {text('body', t('rules.email.body'), true)}
          {placeholders}
        </>
      )}
      {action.channel === 'sms' && (
        <>
          {text('phone', t('rules.sms.phone'), true)}
          {text('body', t('rules.sms.body'), true)}
          {placeholders}
        </>
      )}
      {action.channel === 'voice_message' && (
        <>
          {text('phone', t('rules.voice.phone'))}
          {text('message', t('rules.voice.message'), true)}
          <ConfigField label={t('rules.voice.language')} testId={`${id}-language`}>
            <NativeSelect
              value={str('language') || 'de-DE'}
              onChange={(e) => set('language', e.target.value)}
              data-testid={`${id}-language`}
            >
              {VOICE_LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </NativeSelect>
          </ConfigField>
          {placeholders}
        </>
      )}
      {action.channel === 'system' && (
        <>
          {text('subject', t('rules.system.subject'))}
          {text('text', t('rules.system.text'), true)}
          {placeholders}
        </>
      )}
      {action.channel === 'http' && (
        <>
          <ConfigField label={t('rules.http.method')} testId={`${id}-method`}>
            <NativeSelect
              value={str('method') || 'POST'}
              onChange={(e) => set('method', e.target.value)}
              data-testid={`${id}-method`}
            >
              {HTTP_METHODS.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </NativeSelect>
          </ConfigField>
          {text('url', t('rules.http.url'))}
          {text('body', t('rules.http.body'), true)}
          {placeholders}
        </>
      )}
      {action.channel === 'farming_task' && (
        <>
          {text('title', t('rules.task.title'))}
          <ConfigField label={t('rules.task.type')} testId={`${id}-task_type`}>
            <NativeSelect
              value={str('task_type') || 'custom'}
              onChange={(e) => set('task_type', e.target.value)}
              data-testid={`${id}-task_type`}
            >
              {TASK_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`farming.task-type-${type}`)}
                </option>
              ))}
            </NativeSelect>
          </ConfigField>
          {text('due_in_hours', t('rules.task.due-in-hours'))}
          {text('notes', t('rules.task.notes'), true)}
          <p className="text-xs text-muted-foreground">{t('rules.task.hint')}</p>
          {placeholders}
        </>
      )}
      {action.channel === 'remote_control' && (
        <CommandFields
          command={str('command')}
          params={(c.params as Record<string, unknown> | undefined) ?? {}}
          errors={errors}
          onChange={(command, params) => onChange({ ...action, config: { ...c, command, params } })}
          testId={id}
        />
      )}
    </div>
  );
}
