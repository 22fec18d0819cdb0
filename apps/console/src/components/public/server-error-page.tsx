import { ServerCrashIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { buttonVariants } from '../ui/button';

/** 500 page: the requested resource could not be loaded (also the router's error boundary). */
export function ServerErrorPage() {
  const { t } = useTranslation();
  return (
    <div
      className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center"
      data-testid="page-500"
    >
      <ServerCrashIcon className="size-16 text-destructive" />
      <h1 className="text-4xl font-bold">500</h1>
      <p className="max-w-md text-muted-foreground">{t('message.page-load-failed')}</p>
      <a href="/" className={buttonVariants()}>
        {t('error-page.home')}
      </a>
    </div>
  );
}
