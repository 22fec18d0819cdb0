import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

/** "Loading…" in the place of a lazy chunk's view (a drawer's body, a map) until its code is in. */
export function LazyPanel({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LoadingLine />}>{children}</Suspense>;
}

function LoadingLine() {
  const { t } = useTranslation();
  return <p className="p-4 text-sm text-muted-foreground">{t('common.loading')}</p>;
}
