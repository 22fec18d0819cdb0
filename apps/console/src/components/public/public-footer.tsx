import { useTranslation } from 'react-i18next';
import { buildFooterMenu } from '../../lib/menu';
import { cn } from '../../lib/utils';

/** Footer links to the provider's external pages: about us, contact, imprint, privacy, terms. */
export function FooterLinks({ className, linkClassName }: { className?: string; linkClassName?: string }) {
  const { t } = useTranslation();
  return (
    <nav className={cn('flex flex-wrap gap-x-4 gap-y-1', className)} aria-label={t('footer.label')}>
      {buildFooterMenu().map((entry) => (
        <a
          key={entry.id}
          href={entry.href}
          target="_blank"
          rel="noreferrer"
          className={cn('hover:underline', linkClassName)}
          data-testid={`footer-${entry.id}`}
        >
          {t(entry.labelKey)}
        </a>
      ))}
    </nav>
  );
}
