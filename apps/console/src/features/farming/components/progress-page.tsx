import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/shell/page-header';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { tasksQueryOptions, useFields } from '../api/farming-api';

/**
 * /farming/progress: per field and season (a calendar year), tasks planned against done. The season's
 * readings as charts are not here yet.
 */
export function ProgressPage() {
  const { t } = useTranslation();
  const [season, setSeason] = useState(new Date().getFullYear());
  const from = new Date(Date.UTC(season, 0, 1)).toISOString();
  const to = new Date(Date.UTC(season + 1, 0, 1)).toISOString();
  const tasks = useQuery(tasksQueryOptions('all', from, to));
  const fields = useFields();
  const rows = (fields.data ?? []).map((field) => {
    const own = (tasks.data ?? []).filter(
      (task) => task.field_id === field.id && task.status !== 'abandoned',
    );
    const done = own.filter((task) => task.status === 'done').length;
    return { field, planned: own.length, done, late: own.filter((task) => task.late).length };
  });
  return (
    <div className="flex flex-col gap-4" data-testid="farming-progress-page">
      <PageHeader title={t('page.farming-progress')} />
      <div className="flex items-center gap-2 text-sm">
        <Label htmlFor="progress-season">{t('farming.season')}</Label>
        <Input
          id="progress-season"
          type="number"
          className="w-28"
          value={season}
          onChange={(e) => setSeason(Number(e.target.value) || season)}
        />
      </div>
      <Card className="p-0">
        <Table data-testid="progress-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('farming.field')}</TableHead>
              <TableHead className="text-right">{t('farming.tasks-planned')}</TableHead>
              <TableHead className="text-right">{t('farming.tasks-done')}</TableHead>
              <TableHead className="text-right">{t('farming.late')}</TableHead>
              <TableHead className="w-1/3" />
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map(({ field, planned, done, late }) => (
              <TableRow key={field.id} data-testid={`progress-row-${field.id}`}>
                <TableCell className="font-medium">{field.name}</TableCell>
                <TableCell className="text-right">{planned}</TableCell>
                <TableCell className="text-right">{done}</TableCell>
                <TableCell className="text-right">{late}</TableCell>
                <TableCell>
                  <div className="h-2 rounded bg-muted">
                    <div
                      className="h-2 rounded bg-green-600"
                      style={{ width: `${planned ? (done / planned) * 100 : 0}%` }}
                    />
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
    </div>
  );
}
