import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/shell/page-header';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { useCurrentUser } from '../../../lib/auth';
import { canEdit } from '../../../lib/roles';
import { useWaterAssociations } from '../api/water-api';
import { JoinWaterAssociation } from './join-water-association';

/** /water (the associations the company is or belongs to) and /admin/water (the super admin: every one). */
export function WaterOverviewPage({ admin = false }: { admin?: boolean }) {
  const { t } = useTranslation();
  const list = useWaterAssociations();
  const rows = list.data ?? [];
  const user = useCurrentUser();
  const mayJoin = !admin && !user?.company.is_nwa && canEdit(user?.roles);
  return (
    <div className="flex flex-col gap-4" data-testid="water-overview-page">
      <PageHeader title={t(admin ? 'page.admin-water' : 'page.water-overview')} />
      <Card className="p-0">
        <Table data-testid="water-overview-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('water.name')}</TableHead>
              <TableHead>{t('water.role')}</TableHead>
              <TableHead className="text-right">{t('water.member-count')}</TableHead>
              <TableHead className="text-right">{t('water.open-requests')}</TableHead>
              <TableHead className="text-right">{t('water.shared-device-count')}</TableHead>
              <TableHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((n) => (
              <TableRow key={n.id} data-testid={`water-row-${n.id}`}>
                <TableCell className="font-medium">
                  {n.name}
                  {n.city && <span className="text-muted-foreground"> · {n.city}</span>}
                </TableCell>
                <TableCell>
                  <Badge variant="secondary">{t(`water.role-${n.role}`)}</Badge>
                </TableCell>
                <TableCell className="text-right">{n.member_count}</TableCell>
                <TableCell className="text-right">{n.open_request_count}</TableCell>
                <TableCell className="text-right">{n.shared_device_count}</TableCell>
                <TableCell className="flex justify-end gap-3">
                  <Link className="underline" to={`/water/${n.id}`} data-testid={`water-open-${n.id}`}>
                    {t('water.open-dashboard')}
                  </Link>
                  {n.is_admin && (
                    <Link className="underline" to={`/water/members/${n.id}`}>
                      {t('menu.water-members')}
                    </Link>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {list.isFetched && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={6} className="text-center text-muted-foreground">
                  {t('water.none')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Card>
      {mayJoin && <JoinWaterAssociation />}
    </div>
  );
}
