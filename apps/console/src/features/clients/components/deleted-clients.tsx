import { ArchiveRestoreIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDeletedClients, useRestoreClient } from '../api/deleted-clients';

const DAY_MS = 86_400_000;

/** Whole days until the purge, rounded up: a purge later today still leaves "1 day". */
function daysUntil(purgeAt: string, now = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(purgeAt).getTime() - now) / DAY_MS));
}

/**
 * Deleted clients waiting for their purge, with the days left and a restore (issue #27). Hidden while
 * there are none, so the everyday client list stays alone on the page.
 */
export function DeletedClients() {
  const { t, i18n } = useTranslation();
  const deleted = useDeletedClients();
  const restore = useRestoreClient();
  const rows = deleted.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Card data-testid="deleted-clients">
      <CardHeader>
        <CardTitle>{t('clients.deleted.title')}</CardTitle>
        <CardDescription>{t('clients.deleted.intro')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('clients.name')}</TableHead>
              <TableHead>{t('clients.deleted.deleted-at')}</TableHead>
              <TableHead>{t('clients.deleted.purge-at')}</TableHead>
              <TableHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((client) => (
              <TableRow key={client.id} data-testid={`deleted-client-${client.id}`}>
                <TableCell className="font-medium">{client.name}</TableCell>
                <TableCell>{formatDateTime(client.deleted_at, i18n.language)}</TableCell>
                <TableCell data-testid={`deleted-client-${client.id}-days`}>
                  {t('clients.deleted.days-left', {
                    count: daysUntil(client.purge_at),
                    date: formatDateTime(client.purge_at, i18n.language),
                  })}
                </TableCell>
                <TableCell className="text-right">
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={restore.isPending}
                    onClick={() =>
                      restore.mutate(client.id, {
                        onSuccess: () => notifySuccess(t('clients.deleted.restored', { name: client.name })),
                      })
                    }
                    data-testid={`deleted-client-${client.id}-restore`}
                  >
                    <ArchiveRestoreIcon />
                    {t('clients.deleted.restore')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
