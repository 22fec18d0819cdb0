import { ACTION_COMMAND_IDS, ACTION_COMMANDS, type ActionCommandId, type ValidationError } from '@iot/domain';
import { useTranslation } from 'react-i18next';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { ConfigField } from './field-error';

/** A command of the domain's ACTION_COMMANDS catalogue with inputs for its parameters. */
export function CommandFields({
  command,
  params,
  errors,
  onChange,
  testId,
}: {
  command: string;
  params: Record<string, unknown>;
  errors: Record<string, ValidationError>;
  onChange: (command: string, params: Record<string, unknown>) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const definition = ACTION_COMMANDS[command as ActionCommandId];
  return (
    <div className="flex flex-col gap-3">
      <ConfigField label={t('rules.command')} error={errors.command} testId={`${testId}-command`}>
        <NativeSelect
          value={command}
          onChange={(e) => onChange(e.target.value, {})}
          data-testid={`${testId}-command`}
        >
          {ACTION_COMMAND_IDS.map((id) => (
            <option key={id} value={id}>
              {t(`rules.commands.${id}`)}
            </option>
          ))}
        </NativeSelect>
      </ConfigField>
      {definition?.parameters.map((p) => (
        <ConfigField
          key={p.name}
          label={`${t(`rules.param.${p.name}`)}${'unit' in p ? ` (${p.unit})` : ''}`}
          error={errors[`params.${p.name}`]}
          testId={`${testId}-param-${p.name}`}
        >
          {p.kind === 'boolean' ? (
            <NativeSelect
              value={params[p.name] === true || params[p.name] === 'true' ? 'true' : 'false'}
              onChange={(e) => onChange(command, { ...params, [p.name]: e.target.value === 'true' })}
              data-testid={`${testId}-param-${p.name}`}
            >
              <option value="true">{t('rules.param.on-true')}</option>
              <option value="false">{t('rules.param.on-false')}</option>
            </NativeSelect>
          ) : (
            <Input
              type="number"
              min={'min' in p ? p.min : undefined}
              max={'max' in p ? p.max : undefined}
              value={String(params[p.name] ?? '')}
              onChange={(e) => onChange(command, { ...params, [p.name]: e.target.value })}
              data-testid={`${testId}-param-${p.name}`}
            />
          )}
        </ConfigField>
      ))}
    </div>
  );
}
