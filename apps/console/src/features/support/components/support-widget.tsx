import { LifeBuoyIcon } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';

// The form library (react-hook-form) loads with the dialog, not with the shell of every first screen.
const SupportForm = lazy(() => import('./support-form').then((m) => ({ default: m.SupportForm })));

/** Floating support button; opens the support form in the shell's dialog. */
export function SupportWidget() {
  const { t } = useTranslation();
  const overlay = useOverlay();
  return (
    <Button
      size="icon"
      className="fixed right-5 bottom-5 z-40 size-12 rounded-full shadow-lg"
      aria-label={t('support.open')}
      data-testid="support-widget"
      onClick={() =>
        overlay.openDialog({
          title: t('support.title'),
          description: t('support.intro'),
          testId: 'support-dialog',
          render: (close) => (
            <Suspense fallback={null}>
              <SupportForm onDone={close} />
            </Suspense>
          ),
        })
      }
    >
      <LifeBuoyIcon className="size-6!" />
    </Button>
  );
}
