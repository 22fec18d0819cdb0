import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import type { Alarm } from '../types';

const VARIANT = { raised: 'destructive', acknowledged: 'warning', cleared: 'secondary' } as const;

export function AlarmStateBadge({ state }: { state: Alarm['state'] }) {
  const { t } = useTranslation();
  return (
    <Badge variant={VARIANT[state] ?? 'outline'} data-testid="alarm-state" data-state={state}>
      {t(`alarms.state.${state}`)}
    </Badge>
  );
}
