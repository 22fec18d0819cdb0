import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table';
import { useSortedTable } from '../../../components/data-table/use-sorted-table';
import { PageHeader } from '../../../components/shell/page-header';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { useCurrentUser } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { canEdit } from '../../../lib/roles';
import { useOutbox } from '../api/get-outbox';
import type { OutboxEmail, OutboxPhoneMessage, OutboxState } from '../types';

const NEWEST_FIRST = [{ id: 'created_at', desc: true }];

const VARIANT = { unsent: 'warning', sent: 'secondary', failed: 'destructive' } as const;

function StateBadge({ state, error }: { state: OutboxState; error: string | null }) {
  const { t } = useTranslation();
  return (
    <Badge variant={VARIANT[state]} title={error ?? undefined} data-testid="outbox-state" data-state={state}>
      {t(`outbox.state.${state}`)}
    </Badge>
  );
}

/** The text as it was (or would have been) sent, kept short in the table; the whole text on hover. */
function Text({ title, body }: { title?: string; body: string }) {
  return (
    <div className="max-w-xl min-w-0" title={body}>
      {title && <p className="font-medium break-words">{title}</p>}
      <p className="line-clamp-3 text-sm whitespace-pre-wrap break-words text-muted-foreground">{body}</p>
    </div>
  );
}

function EmailTable({ emails, loading }: { emails: OutboxEmail[]; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const columns: ColumnDef<OutboxEmail>[] = [
    {
      accessorKey: 'created_at',
      header: t('outbox.time'),
      cell: ({ row }) => formatDateTime(row.original.created_at, i18n.language),
    },
    {
      id: 'to',
      header: t('outbox.to'),
      accessorFn: (m) => [...m.recipients, ...m.cc].join(', '),
      cell: ({ row }) => (
        <span className="break-all">
          {row.original.recipients.join(', ')}
          {row.original.cc.length > 0 && (
            <span className="block text-xs text-muted-foreground">
              {t('outbox.cc', { list: row.original.cc.join(', ') })}
            </span>
          )}
        </span>
      ),
    },
    {
      accessorKey: 'subject',
      header: t('outbox.message'),
      cell: ({ row }) => <Text title={row.original.subject} body={row.original.body} />,
    },
    {
      accessorKey: 'state',
      header: t('outbox.state'),
      cell: ({ row }) => <StateBadge state={row.original.state} error={row.original.error} />,
    },
  ];
  // Two tables on one page: each keeps its own sorting.
  const table = useSortedTable({ data: emails, columns, initialSort: NEWEST_FIRST });
  return (
    <DataTable
      table={table}
      testId="outbox-emails"
      rowTestId={(row) => `outbox-email-row-${row.original.id}`}
      rowAttributes={(row) => ({ 'data-state': row.original.state })}
      empty={loading ? t('common.loading') : t('outbox.emails-empty')}
    />
  );
}

function PhoneTable({ messages, loading }: { messages: OutboxPhoneMessage[]; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const columns: ColumnDef<OutboxPhoneMessage>[] = [
    {
      accessorKey: 'created_at',
      header: t('outbox.time'),
      cell: ({ row }) => formatDateTime(row.original.created_at, i18n.language),
    },
    {
      accessorKey: 'channel',
      header: t('outbox.channel'),
      cell: ({ row }) =>
        row.original.channel === 'voice'
          ? t('outbox.channel.voice', { language: row.original.voice_language ?? '' })
          : t('outbox.channel.sms'),
    },
    { accessorKey: 'recipient', header: t('outbox.to') },
    {
      id: 'source',
      header: t('outbox.source'),
      accessorFn: (m) => m.device_name ?? '',
      cell: ({ row }) => (
        <span>
          {row.original.device_name ?? '–'}
          {row.original.rule_name && (
            <span className="block text-xs text-muted-foreground">{row.original.rule_name}</span>
          )}
        </span>
      ),
    },
    {
      accessorKey: 'body',
      header: t('outbox.message'),
      cell: ({ row }) => <Text body={row.original.body} />,
    },
    {
      accessorKey: 'state',
      header: t('outbox.state'),
      cell: ({ row }) => <StateBadge state={row.original.state} error={row.original.error} />,
    },
  ];
  // Two tables on one page: each keeps its own sorting.
  const table = useSortedTable({ data: messages, columns, initialSort: NEWEST_FIRST });
  return (
    <DataTable
      table={table}
      testId="outbox-phone-messages"
      rowTestId={(row) => `outbox-phone-row-${row.original.id}`}
      rowAttributes={(row) => ({ 'data-state': row.original.state, 'data-channel': row.original.channel })}
      empty={loading ? t('common.loading') : t('outbox.phone-empty')}
    />
  );
}

/**
 * The outbox (/outbox, managers): the company's email, SMS and calls. Without a mail server or an SMS
 * provider, as in the embedded default, rule actions are kept here, unsent, instead of failing; with one,
 * what was handed over and what the provider refused are listed too.
 */
export function OutboxPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const manager = canEdit(user?.roles);
  const outbox = useOutbox(manager);
  if (!manager) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="outbox-no-permission">
        {t('outbox.no-permission')}
      </p>
    );
  }
  const emails = outbox.data?.emails ?? [];
  const phones = outbox.data?.phone_messages ?? [];
  return (
    <div className="flex flex-col gap-4" data-testid="outbox-page">
      <PageHeader title={t('page.outbox')} />
      <p className="text-sm text-muted-foreground">{t('outbox.intro')}</p>
      <Tabs defaultValue="emails">
        <TabsList>
          <TabsTrigger value="emails" data-testid="outbox-tab-emails">
            {t('outbox.tab.emails', { count: emails.length })}
          </TabsTrigger>
          <TabsTrigger value="phone" data-testid="outbox-tab-phone">
            {t('outbox.tab.phone', { count: phones.length })}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="emails">
          <Card className="p-2">
            <EmailTable emails={emails} loading={outbox.isPending} />
          </Card>
        </TabsContent>
        <TabsContent value="phone">
          <Card className="p-2">
            <PhoneTable messages={phones} loading={outbox.isPending} />
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}
