import { CheckIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Label } from '../../../components/ui/label';
import { SheetBody } from '../../../components/ui/sheet';
import { useCurrentUser } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { canEdit } from '../../../lib/roles';
import { useDeleteMessage, useReadMessage } from '../api/change-message';
import { useMessages } from '../api/get-messages';
import type { Message } from '../types';
import { useMessageText } from './message-text';

/** The messages drawer: unread messages (read ones too with the toggle), mark read, delete read ones. */
export function MessagesDrawer() {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const [showRead, setShowRead] = useState(false);
  const messages = useMessages(showRead);
  const read = useReadMessage();
  const remove = useDeleteMessage();
  const list = messages.data;
  const user = useCurrentUser();
  const textOf = useMessageText();

  const confirmDelete = async (message: Message) => {
    const ok = await overlay.confirm({
      title: t('messages.delete-title'),
      message: t('messages.delete-message', { subject: textOf(message).subject }),
      confirmLabel: t('common.delete'),
      destructive: true,
      testId: 'message-delete-confirm',
    });
    if (ok) remove.mutate(message.id);
  };

  return (
    <SheetBody className="flex flex-col gap-3 pb-4" data-testid="messages">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <Checkbox
            id="messages-show-read"
            checked={showRead}
            onCheckedChange={(v) => setShowRead(v === true)}
            data-testid="messages-show-read"
          />
          <Label htmlFor="messages-show-read">{t('messages.show-read')}</Label>
        </div>
        {list && (
          <p
            className="text-sm text-muted-foreground"
            data-testid="messages-counts"
            data-read={list.read}
            data-unread={list.unread}
          >
            {t('messages.counts', { unread: list.unread, read: list.read })}
          </p>
        )}
      </div>
      {!list || list.messages.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="messages-empty">
          {messages.isPending ? t('common.loading') : t('messages.empty')}
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {list.messages.map((message) => {
            const text = textOf(message);
            return (
              <li
                key={message.id}
                className="rounded-lg border p-3"
                data-testid={`message-${message.id}`}
                data-read={message.is_read}
                data-kind={message.kind ?? undefined}
              >
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-medium break-words" data-testid="message-subject">
                      {!message.is_read && (
                        <Badge className="mr-2" data-testid="message-unread">
                          {t('messages.new')}
                        </Badge>
                      )}
                      {text.subject}
                    </p>
                    <p className="text-xs text-muted-foreground">
                      {formatDateTime(message.created_at, i18n.language)}
                    </p>
                  </div>
                  <div className="flex shrink-0 gap-1">
                    {!message.is_read && (
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('messages.mark-read')}
                        title={t('messages.mark-read')}
                        disabled={read.isPending}
                        onClick={() => read.mutate(message.id)}
                        data-testid={`message-read-${message.id}`}
                      >
                        <CheckIcon />
                      </Button>
                    )}
                    {message.is_read && (
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('common.delete')}
                        title={t('common.delete')}
                        disabled={remove.isPending}
                        onClick={() => void confirmDelete(message)}
                        data-testid={`message-delete-${message.id}`}
                      >
                        <Trash2Icon className="text-destructive" />
                      </Button>
                    )}
                  </div>
                </div>
                <p className="mt-2 text-sm whitespace-pre-wrap break-words" data-testid="message-body">
                  {text.body}
                </p>
                {message.kind !== null && message.device_id !== null && (
                  // The device's drawer on the device list (by id, so a renamed device is found too):
                  // from there its command history and notification log are one click away.
                  <Link
                    to={`/devices?device=${message.device_id}`}
                    onClick={() => overlay.closeDrawer()}
                    className="mt-1 inline-block text-sm text-primary underline-offset-4 hover:underline"
                    data-testid="message-device-link"
                  >
                    {t('messages.show-device')}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {canEdit(user?.roles) && (
        // Mail and SMS of the rules, kept here when no mail server or SMS provider is configured.
        <Link
          to="/outbox"
          onClick={() => overlay.closeDrawer()}
          className="text-sm text-primary underline-offset-4 hover:underline"
          data-testid="messages-outbox-link"
        >
          {t('messages.outbox-link')}
        </Link>
      )}
    </SheetBody>
  );
}
