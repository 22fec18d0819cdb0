import { CheckIcon, ShieldIcon, ShieldOffIcon, UserMinusIcon, XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { PageHeader } from '../../../components/shell/page-header';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, CardTitle } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import {
  useDecideRequest,
  useSetMemberAdmin,
  useUnassignMember,
  useWaterDetails,
  useWaterRequests,
} from '../api/water-api';
import { useWaterId } from './use-water-id';
import { formatM3 } from './water-format';

/** /water/members/:id?: members with the admin flag and unassign, and the open membership requests. */
export function WaterMembersPage() {
  const id = useWaterId();
  return id === null ? null : <Members id={id} />;
}

function Members({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const details = useWaterDetails(id);
  const manages = details.data?.is_admin ?? false;
  const requests = useWaterRequests(id, manages);
  const setAdmin = useSetMemberAdmin(id);
  const unassign = useUnassignMember(id);
  const decide = useDecideRequest(id);

  const toggleAdmin = async (companyId: number, name: string, isAdmin: boolean) => {
    const ok = await overlay.confirm({
      title: t(isAdmin ? 'water.revoke-admin-title' : 'water.make-admin-title'),
      message: t(isAdmin ? 'water.revoke-admin-message' : 'water.make-admin-message', { name }),
      testId: 'water-admin-confirm',
    });
    if (ok)
      setAdmin.mutate({ companyId, isAdmin: !isAdmin }, { onSuccess: () => notifySuccess(t('water.saved')) });
  };
  const confirmUnassign = async (companyId: number, name: string) => {
    const ok = await overlay.confirm({
      title: t('water.unassign-title'),
      message: t('water.unassign-message', { name }),
      confirmLabel: t('water.unassign'),
      destructive: true,
      testId: 'water-unassign-confirm',
    });
    if (ok) unassign.mutate(companyId, { onSuccess: () => notifySuccess(t('water.unassigned')) });
  };

  return (
    <div className="flex flex-col gap-4" data-testid="water-members-page">
      <PageHeader title={`${t('page.water-members')}${details.data ? ` · ${details.data.name}` : ''}`} />
      <Card className="p-0">
        <Table data-testid="water-members-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('water.member')}</TableHead>
              <TableHead>{t('water.joined')}</TableHead>
              <TableHead className="text-right">{t('water.allowance')}</TableHead>
              <TableHead className="text-right">{t('water.allowance-hour')}</TableHead>
              <TableHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {(details.data?.members ?? []).map((m) => (
              <TableRow key={m.company_id} data-testid={`water-member-${m.company_id}`}>
                <TableCell className="font-medium">
                  {m.name} {m.is_admin && <Badge variant="secondary">{t('water.role-admin')}</Badge>}
                </TableCell>
                <TableCell>{formatDateTime(m.joined_at, i18n.language)}</TableCell>
                <TableCell className="text-right">
                  {formatM3(m.allowance_per_year, i18n.language, 0)}
                </TableCell>
                <TableCell className="text-right">
                  {formatM3(m.allowance_per_hour, i18n.language, 1)}
                </TableCell>
                <TableCell className="flex justify-end gap-1">
                  {manages && (
                    <>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t(m.is_admin ? 'water.revoke-admin' : 'water.make-admin')}
                        onClick={() => void toggleAdmin(m.company_id, m.name, m.is_admin)}
                        data-testid={`water-admin-${m.company_id}`}
                      >
                        {m.is_admin ? <ShieldOffIcon /> : <ShieldIcon />}
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('water.unassign')}
                        onClick={() => void confirmUnassign(m.company_id, m.name)}
                        data-testid={`water-unassign-${m.company_id}`}
                      >
                        <UserMinusIcon />
                      </Button>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      {manages && (
        <Card className="p-0">
          <CardHeader>
            <CardTitle>{t('water.requests')}</CardTitle>
          </CardHeader>
          <Table data-testid="water-requests-table">
            <TableBody>
              {(requests.data ?? []).map((r) => (
                <TableRow key={r.id} data-testid={`water-request-${r.company_id}`}>
                  <TableCell className="font-medium">
                    {r.company_name}
                    {r.city && <span className="text-muted-foreground"> · {r.city}</span>}
                  </TableCell>
                  <TableCell>{formatDateTime(r.created_at, i18n.language)}</TableCell>
                  <TableCell className="flex justify-end gap-2">
                    <Button
                      size="sm"
                      onClick={() => decide.mutate({ companyId: r.company_id, accept: true })}
                      data-testid={`water-request-accept-${r.company_id}`}
                    >
                      <CheckIcon />
                      {t('water.accept')}
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => decide.mutate({ companyId: r.company_id, accept: false })}
                      data-testid={`water-request-reject-${r.company_id}`}
                    >
                      <XIcon />
                      {t('water.reject')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
              {requests.isFetched && (requests.data ?? []).length === 0 && (
                <TableRow>
                  <TableCell className="text-center text-muted-foreground">
                    {t('water.no-requests')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </Card>
      )}
    </div>
  );
}
