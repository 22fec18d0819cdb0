import { VERSION_DISPLAY_LENGTH, VERSION_UNKNOWN } from '@iot/domain';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../lib/utils';
import { useVersion } from '../api/get-version';

/** First 8 characters of the backend version; eight x when it cannot be read (spec section 8). */
export function VersionDisplay({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { data, isError, isPending } = useVersion();
  const text = isError ? VERSION_UNKNOWN : isPending ? '…' : data.version.slice(0, VERSION_DISPLAY_LENGTH);
  return (
    <span className={cn('font-mono text-xs', className)} data-testid="version-display" data-version={text}>
      {t('public.version', { version: text })}
    </span>
  );
}
