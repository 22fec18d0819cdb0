import { LifeBuoyIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { SupportForm } from './support-form';

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
          render: (close) => <SupportForm onDone={close} />,
        })
      }
    >
      <LifeBuoyIcon className="size-6!" />
    </Button>
  );
}
