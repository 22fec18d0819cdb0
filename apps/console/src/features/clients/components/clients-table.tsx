import type { ColumnDef } from '@tanstack/react-table';
import { Building2Icon, VenetianMaskIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../../components/data-table/data-table';
import { useUrlListTable } from '../../../components/data-table/use-url-list-table';
import { ListToolbar } from '../../../components/shell/list-toolbar';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { formatNumber } from '../../../lib/format';
import type { Client } from '../../../types/api';
import { useClients } from '../api/get-clients';
import { useImpersonateClient } from '../api/impersonate-client';
import { CreateClientDialog } from './create-client-dialog';
import { DeletedClients } from './deleted-clients';
import { EditClientDialog } from './edit-client-dialog';
import { ModuleBadges } from './module-badges';

/** Client management for the super admin: list, filter, act as a client after a warning. */
export function ClientsTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const overlay = useOverlay();
  const clients = useClients();
  const impersonate = useImpersonateClient();

  const actAs = async (client: Client) => {
    const ok = await overlay.confirm({
      title: t('clients.impersonate-title'),
      message: t('clients.impersonate-warning', { name: client.name }),
      confirmLabel: t('clients.impersonate'),
      destructive: true,
      testId: 'impersonate-confirm',
    });
    if (!ok) return;
    impersonate.mutate(client.id, { onSuccess: () => navigate('/dashboard', { replace: true }) });
  };

  // Small lists: the columns are rebuilt per render, so the handlers they call are always current.
  const columns: ColumnDef<Client>[] = [
    { accessorKey: 'id', header: t('clients.id') },
    {
      accessorKey: 'name',
      header: t('clients.name'),
      cell: ({ row }) => (
        <span className="flex items-center gap-2 font-medium">
          <Building2Icon className="size-4 text-muted-foreground" />
          {row.original.name}
          {row.original.is_nwa && <Badge variant="secondary">{t('clients.nwa')}</Badge>}
          {row.original.blocked && (
            <Badge variant="destructive" data-testid={`client-blocked-${row.original.id}`}>
              {t('clients.blocked')}
            </Badge>
          )}
        </span>
      ),
    },
    {
      accessorKey: 'customer_number',
      header: t('clients.customer-number'),
      cell: ({ row }) => row.original.customer_number || '–',
    },
    { accessorKey: 'city', header: t('clients.city') },
    {
      accessorKey: 'user_count',
      header: t('clients.users'),
      cell: ({ row }) => formatNumber(row.original.user_count ?? 0, i18n.language),
    },
    {
      accessorKey: 'device_count',
      header: t('clients.devices'),
      cell: ({ row }) => formatNumber(row.original.device_count ?? 0, i18n.language),
    },
    {
      id: 'modules',
      header: t('clients.modules'),
      enableSorting: false,
      cell: ({ row }) => (
        <ModuleBadges modules={row.original.modules ?? []} testId={`client-modules-${row.original.id}`} />
      ),
    },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      // Reachable without scrolling the table sideways, however wide the modules make it.
      meta: { pinRight: true },
      cell: ({ row }) => (
        <div className="flex gap-2">
          <EditClientDialog client={row.original} />
          <Button
            size="sm"
            variant="outline"
            onClick={() => void actAs(row.original)}
            disabled={impersonate.isPending}
            data-testid={`client-impersonate-${row.original.id}`}
          >
            <VenetianMaskIcon />
            {t('clients.impersonate')}
          </Button>
        </div>
      ),
    },
  ];

  const { table, filter, setFilter } = useUrlListTable({
    data: clients.data,
    columns,
    defaultSort: [{ id: 'name', desc: false }],
  });

  return (
    <div className="flex flex-col gap-4" data-testid="clients-page">
      <ListToolbar
        title={t('page.admin-clients')}
        search={{ value: filter, onChange: setFilter, testId: 'clients-filter' }}
      >
        <CreateClientDialog />
      </ListToolbar>
      <Card className="p-2">
        <DataTable
          table={table}
          testId="clients-table"
          rowTestId={(row) => `client-row-${row.original.id}`}
          empty={clients.isPending ? t('common.loading') : t('common.no-data')}
        />
      </Card>
      <DeletedClients />
    </div>
  );
}
