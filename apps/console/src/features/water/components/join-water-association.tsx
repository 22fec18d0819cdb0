import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, CardTitle } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableRow } from '../../../components/ui/table';
import { notifySuccess } from '../../../lib/notify';
import { useAskToJoin, useWaterDirectory } from '../api/water-api';

/**
 * Asking to join (POST /nwa/{id}/membership-requests): the associations the company is not in yet, for its
 * main user or admin. The association decides on its members page.
 */
export function JoinWaterAssociation() {
  const { t } = useTranslation();
  const directory = useWaterDirectory(true);
  const ask = useAskToJoin();
  const open = (directory.data ?? []).filter((n) => n.role === null);
  if (open.length === 0) return null;
  return (
    <Card className="p-0" data-testid="water-join">
      <CardHeader>
        <CardTitle>{t('water.join-title')}</CardTitle>
      </CardHeader>
      <Table>
        <TableBody>
          {open.map((n) => (
            <TableRow key={n.id}>
              <TableCell className="font-medium">
                {n.name}
                {n.city && <span className="text-muted-foreground"> · {n.city}</span>}
              </TableCell>
              <TableCell className="text-right">
                {n.request_pending ? (
                  <span className="text-muted-foreground">{t('water.join-pending')}</span>
                ) : (
                  <Button
                    size="sm"
                    onClick={() => ask.mutate(n.id, { onSuccess: () => notifySuccess(t('water.join-sent')) })}
                    data-testid={`water-join-${n.id}`}
                  >
                    {t('water.join')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
