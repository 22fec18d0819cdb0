import { AUTO_LOGOUT_MINUTES, IDLE_TIMEOUT_SECONDS, SESSION_REMINDER } from '@iot/domain';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../../components/ui/alert-dialog';
import { Button } from '../../../components/ui/button';
import { notifyInfo } from '../../../lib/notify';
import { testHooks } from '../../../lib/test-hooks';
import { logout } from '../api/logout';

/**
 * Idle reminder, then automatic logout (spec sections 4 and 9): the idle timer (300 s) restarts on
 * mouse move and key press; when it runs out a reminder counts down (60 s) and then signs out.
 * Test builds may shorten both through window.__IOT_TEST__ (see lib/test-hooks.ts).
 */
export function IdleWatcher() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [timing] = useState(() => {
    const hooks = testHooks();
    return {
      idleMs: (hooks.idleSeconds ?? IDLE_TIMEOUT_SECONDS) * 1000,
      reminderSeconds: hooks.reminderSeconds ?? SESSION_REMINDER,
    };
  });
  const [remaining, setRemaining] = useState<number | null>(null);
  const reminding = remaining !== null;
  const remindingRef = useRef(false);
  remindingRef.current = reminding;

  // Idle timer: restarted by activity while no reminder is open.
  useEffect(() => {
    if (reminding) return undefined;
    let timer = window.setTimeout(() => setRemaining(timing.reminderSeconds), timing.idleMs);
    const restart = () => {
      if (remindingRef.current) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setRemaining(timing.reminderSeconds), timing.idleMs);
    };
    window.addEventListener('mousemove', restart, { passive: true });
    window.addEventListener('keydown', restart);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('mousemove', restart);
      window.removeEventListener('keydown', restart);
    };
  }, [reminding, timing]);

  // Reminder countdown, then logout.
  useEffect(() => {
    if (remaining === null) return undefined;
    if (remaining <= 0) {
      setRemaining(null);
      void logout()
        .catch(() => undefined)
        .finally(() => {
          notifyInfo(t('idle.logged-out', { minutes: AUTO_LOGOUT_MINUTES }));
          navigate('/login', { replace: true });
        });
      return undefined;
    }
    const tick = window.setTimeout(() => setRemaining((r) => (r === null ? null : r - 1)), 1000);
    return () => window.clearTimeout(tick);
  }, [remaining, navigate, t]);

  return (
    <AlertDialog open={reminding} onOpenChange={(open) => !open && setRemaining(null)}>
      {reminding && (
        <AlertDialogContent data-testid="idle-reminder">
          <AlertDialogHeader>
            <AlertDialogTitle>{t('idle.title')}</AlertDialogTitle>
            <AlertDialogDescription>
              {t('message.idle-logout', { minutes: AUTO_LOGOUT_MINUTES })}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <p className="text-sm font-medium" data-testid="idle-countdown" data-seconds={remaining}>
            {t('idle.countdown', { count: remaining })}
          </p>
          <AlertDialogFooter>
            <Button variant="outline" data-testid="idle-logout" onClick={() => setRemaining(0)}>
              {t('shell.logout')}
            </Button>
            <AlertDialogAction data-testid="idle-stay" onClick={() => setRemaining(null)}>
              {t('idle.stay')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      )}
    </AlertDialog>
  );
}
