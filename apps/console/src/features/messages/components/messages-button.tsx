import { BellIcon, MailIcon } from 'lucide-react';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyPanel } from '../../../components/lazy-panel';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { useMessages } from '../api/get-messages';

const MessagesDrawer = lazy(() => import('./messages-drawer').then((m) => ({ default: m.MessagesDrawer })));

/** Top-bar entry: a bell with the unread count; opens the messages drawer. */
export function MessagesButton() {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const messages = useMessages(false);
  const unread = messages.data?.unread ?? 0;
  const open = () =>
    overlay.openDrawer({
      header: { name: t('messages.title'), icon: <MailIcon /> },
      testId: 'messages-drawer',
      render: () => (
        <LazyPanel>
          <MessagesDrawer />
        </LazyPanel>
      ),
    });
  return (
    <Button
      variant="ghost"
      size="icon"
      className="relative"
      aria-label={t('messages.open', { count: unread })}
      onClick={open}
      data-testid="messages-button"
      data-unread={unread}
    >
      <BellIcon />
      {unread > 0 && (
        <span
          className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] font-semibold text-white"
          data-testid="messages-badge"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Button>
  );
}
