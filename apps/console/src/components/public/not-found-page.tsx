import { CompassIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonVariants } from '../ui/button';

/** 404 page for every unknown path. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div
      className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center"
      data-testid="page-404"
    >
      <CompassIcon className="size-16 text-primary" />
      <h1 className="text-4xl font-bold">{t('message.page-not-found')}</h1>
      <p className="max-w-md text-muted-foreground">{t('error-page.404-text')}</p>
      <Link to="/" className={buttonVariants()}>
        {t('error-page.home')}
      </Link>
    </div>
  );
}
