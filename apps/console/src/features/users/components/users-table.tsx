import type { ColumnDef } from '@tanstack/react-table';
import { PencilIcon, Trash2Icon, UserIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table';
import { useUrlListTable } from '../../../components/data-table/use-url-list-table';
import { ListToolbar } from '../../../components/shell/list-toolbar';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../../components/ui/tooltip';
import { useCurrentUser } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import type { ManagedUser } from '../../../types/api';
import { ROLE_ADMIN, toggledRoles } from '../admin-role';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';
import { useUpdateUser } from '../api/update-user';
import { UserForm } from './user-form';

/** User management for main users: table, add/edit drawer, delete and admin toggle behind confirmations. */
export function UsersTable() {
  const { t, i18n } = useTranslation();
  const me = useCurrentUser();
  const overlay = useOverlay();
  const users = useUsers();
  const update = useUpdateUser();
  const remove = useDeleteUser();

  const openDrawer = (user: ManagedUser | null) =>
    overlay.openDrawer({
      header: user
        ? { name: user.name, email: user.email, id: user.id, icon: <UserIcon /> }
        : { name: t('users.add'), icon: <UserIcon /> },
      testId: 'user-drawer',
      render: (close) => <UserForm user={user} onDone={close} />,
    });

  const confirmDelete = async (user: ManagedUser) => {
    const ok = await overlay.confirm({
      title: t('users.delete-title'),
      message: t('users.delete-message', { name: user.name }),
      confirmLabel: t('common.delete'),
      destructive: true,
      testId: 'user-delete-confirm',
    });
    if (ok) remove.mutate(user.id, { onSuccess: () => notifySuccess(t('users.deleted')) });
  };

  const confirmAdmin = async (user: ManagedUser, admin: boolean) => {
    const ok = await overlay.confirm({
      title: admin ? t('users.admin-grant-title') : t('users.admin-revoke-title'),
      message: admin
        ? t('users.admin-grant-message', { name: user.name })
        : t('users.admin-revoke-message', { name: user.name }),
      testId: 'user-admin-confirm',
    });
    if (ok) {
      update.mutate(
        { id: user.id, roles: toggledRoles(user.roles, admin) },
        { onSuccess: () => notifySuccess(t('users.saved')) },
      );
    }
  };

  // Small lists: the columns are rebuilt per render, so the handlers they call are always current.
  const columns: ColumnDef<ManagedUser>[] = [
    { accessorKey: 'name', header: t('users.name') },
    { accessorKey: 'email', header: t('users.email') },
    {
      accessorKey: 'locale',
      header: t('users.language'),
      cell: ({ row }) => t(`language.${row.original.locale}`, { defaultValue: row.original.locale }),
    },
    {
      id: 'admin',
      header: t('users.admin'),
      accessorFn: (u) => u.roles.includes(ROLE_ADMIN),
      cell: ({ row }) => {
        const isAdmin = row.original.roles.includes(ROLE_ADMIN);
        const self = row.original.id === me?.id;
        return (
          <Checkbox
            checked={isAdmin}
            disabled={self || update.isPending}
            aria-label={t('users.admin')}
            onCheckedChange={(v) => void confirmAdmin(row.original, v === true)}
            data-testid={`user-admin-toggle-${row.original.id}`}
          />
        );
      },
    },
    {
      accessorKey: 'last_login',
      header: t('users.last-login'),
      cell: ({ row }) => formatDateTime(row.original.last_login, i18n.language) || '–',
    },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      cell: ({ row }) => {
        const self = row.original.id === me?.id;
        return (
          <div className="flex justify-end gap-1">
            <Button
              size="icon"
              variant="ghost"
              aria-label={t('common.edit')}
              onClick={() => openDrawer(row.original)}
              data-testid={`user-edit-${row.original.id}`}
            >
              <PencilIcon />
            </Button>
            <Tooltip>
              <TooltipTrigger asChild>
                <span>
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={t('common.delete')}
                    disabled={self || remove.isPending}
                    onClick={() => void confirmDelete(row.original)}
                    data-testid={`user-delete-${row.original.id}`}
                  >
                    <Trash2Icon className="text-destructive" />
                  </Button>
                </span>
              </TooltipTrigger>
              {self && <TooltipContent>{t('users.cannot-delete-self')}</TooltipContent>}
            </Tooltip>
          </div>
        );
      },
    },
  ];

  const { table, filter, setFilter } = useUrlListTable({
    data: users.data,
    columns,
    defaultSort: [{ id: 'name', desc: false }],
  });

  return (
    <div className="flex flex-col gap-4" data-testid="users-page">
      <ListToolbar
        title={t('page.users')}
        search={{ value: filter, onChange: setFilter, testId: 'users-filter' }}
        add={{ label: t('users.add'), onClick: () => openDrawer(null), testId: 'user-add' }}
      />
      <Card className="p-2">
        <DataTable
          table={table}
          testId="users-table"
          rowTestId={(row) => `user-row-${row.original.id}`}
          empty={users.isPending ? t('common.loading') : t('common.no-data')}
        />
      </Card>
    </div>
  );
}
