import { ConstructionIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { PageHeader } from '../../components/shell/page-header';
import type { TranslationKey } from '../../types/translation-key';

/** Screens of later issues: a translated title inside the shell, taken from the route's handle. */
export function Component() {
  const { t } = useTranslation();
  const matches = useMatches();
  const titleKey =
    (matches[matches.length - 1]?.handle as { titleKey?: TranslationKey } | undefined)?.titleKey ??
    'page.coming-soon';
  return (
    <div className="flex flex-col gap-4" data-testid="placeholder-page" data-page={titleKey}>
      <PageHeader title={t(titleKey)} />
      <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center text-muted-foreground">
        <ConstructionIcon className="size-10" />
        <p>{t('page.coming-soon')}</p>
      </div>
    </div>
  );
}
