import type * as React from 'react';
import { useTranslation } from 'react-i18next';

/** The shell's page footer. */
export function ShellFooter({ children }: { children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <footer
      className="flex flex-wrap items-center justify-between gap-2 border-t px-4 py-3 text-xs text-muted-foreground"
      data-testid="shell-footer"
    >
      <span>{t('shell.copyright', { year: new Date().getFullYear() })}</span>
      {children}
    </footer>
  );
}
