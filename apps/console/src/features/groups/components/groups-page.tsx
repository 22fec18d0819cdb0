import { EyeIcon, FolderIcon, ListIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListToolbar } from '../../../components/shell/list-toolbar';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { useCurrentUser } from '../../../lib/auth';
import { notifySuccess } from '../../../lib/notify';
import { canEdit } from '../../../lib/roles';
import { useDeleteGroup } from '../api/delete-group';
import { useGroups } from '../api/get-groups';
import type { Group } from '../types';
import { GroupForm } from './group-form';
import { GroupView } from './group-view';

/** /groups: the company's groups with add, edit and view drawers (spec section 2). */
export function GroupsPage() {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const groups = useGroups();
  const remove = useDeleteGroup();
  const editable = canEdit(useCurrentUser()?.roles);
  const header = (group: Group | null) =>
    group
      ? { name: group.name, id: group.id, icon: <FolderIcon /> }
      : { name: t('groups.add'), icon: <FolderIcon /> };

  const openForm = (group: Group | null) =>
    overlay.openDrawer({
      header: header(group),
      testId: 'group-drawer',
      render: (close) => <GroupForm group={group} onDone={close} />,
    });
  const openView = (group: Group) =>
    overlay.openDrawer({
      header: header(group),
      testId: 'group-view-drawer',
      render: () => <GroupView group={group} />,
    });
  const confirmDelete = async (group: Group) => {
    const ok = await overlay.confirm({
      title: t('groups.delete-title'),
      message: t('groups.delete-message', { name: group.name }),
      confirmLabel: t('common.delete'),
      destructive: true,
      testId: 'group-delete-confirm',
    });
    if (ok) remove.mutate(group.id, { onSuccess: () => notifySuccess(t('groups.deleted')) });
  };

  const rows = [...(groups.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div className="flex flex-col gap-4" data-testid="groups-page">
      <ListToolbar
        title={t('page.groups')}
        add={editable && { label: t('groups.add'), onClick: () => openForm(null), testId: 'group-add' }}
      />
      <Card className="p-0">
        <Table data-testid="groups-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('groups.name')}</TableHead>
              <TableHead>{t('groups.description')}</TableHead>
              <TableHead className="text-right">{t('groups.device-count')}</TableHead>
              <TableHead className="w-40" />
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((group) => (
              <TableRow key={group.id} data-testid={`group-row-${group.id}`}>
                <TableCell className="font-medium">{group.name}</TableCell>
                <TableCell className="text-muted-foreground">{group.description}</TableCell>
                <TableCell className="text-right" data-testid={`group-count-${group.id}`}>
                  {group.device_count}
                </TableCell>
                <TableCell className="flex justify-end gap-1">
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={t('groups.view')}
                    onClick={() => openView(group)}
                    data-testid={`group-view-${group.id}`}
                  >
                    <EyeIcon />
                  </Button>
                  <Button size="icon" variant="ghost" aria-label={t('groups.show-devices')} asChild>
                    <Link to={`/devices?group=${group.id}`} data-testid={`group-devices-${group.id}`}>
                      <ListIcon />
                    </Link>
                  </Button>
                  {editable && (
                    <>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('common.edit')}
                        onClick={() => openForm(group)}
                        data-testid={`group-edit-${group.id}`}
                      >
                        <PencilIcon />
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('common.delete')}
                        onClick={() => void confirmDelete(group)}
                        data-testid={`group-delete-${group.id}`}
                      >
                        <Trash2Icon />
                      </Button>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {groups.isSuccess && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={4} className="text-center text-muted-foreground">
                  {t('common.no-data')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Card>
    </div>
  );
}
