import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../../components/ui/tooltip';
import type { TranslationKey } from '../../../types/translation-key';

/** Badges shown in a row before the rest is folded into "+N": a client with every module stays one line. */
const SHOWN_MODULES = 3;

/** A client's licensed modules in the client table: the first few as badges, the rest behind "+N". */
export function ModuleBadges({ modules, testId }: { modules: readonly string[]; testId: string }) {
  const { t } = useTranslation();
  const names = modules.map((m) => t(`module.${m}` as TranslationKey));
  const shown = names.slice(0, SHOWN_MODULES);
  const folded = names.slice(SHOWN_MODULES);
  return (
    <div className="flex items-center gap-1 whitespace-nowrap" data-testid={testId} data-count={names.length}>
      {shown.map((name) => (
        <Badge key={name} variant="outline">
          {name}
        </Badge>
      ))}
      {folded.length > 0 && (
        <Tooltip>
          <TooltipTrigger asChild>
            <button
              type="button"
              className="rounded-md border px-2 py-0.5 text-xs font-medium"
              aria-label={t('clients.more-modules-label', { names: folded.join(', ') })}
              data-testid={`${testId}-more`}
            >
              {t('clients.more-modules', { count: folded.length })}
            </button>
          </TooltipTrigger>
          <TooltipContent data-testid={`${testId}-more-hint`}>{folded.join(', ')}</TooltipContent>
        </Tooltip>
      )}
    </div>
  );
}
