import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UplotChart } from '../../../components/chart/uplot-chart';
import { PageHeader } from '../../../components/shell/page-header';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { deviceDataQueryOptions } from '../../../lib/devices/get-device-data';
import { formatNumber } from '../../../lib/format';
import { type FarmingField, tasksQueryOptions, useFieldDevices, useFields } from '../api/farming-api';
import { alignLines, seasonLines } from './season-readings';

const MOISTURE_KEYS = ['soil_water_pf1', 'soil_humidity'] as const;
const RAIN_KEYS = ['rain_hourly'] as const;
const COLOURS = ['--primary', '--destructive', '--foreground', '--muted-foreground'];

/** The season's soil moisture and rain of one field's devices as charts (uPlot). */
function SeasonCharts({ field, from, to }: { field: FarmingField; from: number; to: number }) {
  const { t, i18n } = useTranslation();
  const devices = useFieldDevices();
  const queries = useQueries({
    queries: field.device_ids.map((id) =>
      deviceDataQueryOptions({ id, fields: [...MOISTURE_KEYS, ...RAIN_KEYS], from, to }),
    ),
  });
  const answers = queries.flatMap((q) => (q.data ? [q.data] : []));
  const nameOf = (id: number) => devices.data?.find((d) => d.id === id)?.name ?? `#${id}`;
  const charts = [
    { key: 'moisture', title: t('farming.soil-moisture'), lines: seasonLines(answers, MOISTURE_KEYS) },
    { key: 'rain', title: t('farming.rain'), lines: seasonLines(answers, RAIN_KEYS) },
  ];
  const unit = (key: string) => (key === 'soil_water_pf1' ? 'pF' : key === 'soil_humidity' ? '%' : 'mm');
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="progress-charts">
      {charts.map((chart) => (
        <Card key={chart.key} className="flex flex-col gap-2 p-4">
          <h2 className="font-semibold">{chart.title}</h2>
          {chart.lines.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid={`progress-chart-${chart.key}-empty`}>
              {t('common.no-data')}
            </p>
          ) : (
            <UplotChart
              lang={i18n.language}
              height={220}
              testId={`progress-chart-${chart.key}`}
              data={alignLines(chart.lines) as never}
              series={chart.lines.map((line, i) => ({
                label: `${nameOf(line.deviceId)} (${unit(line.key)})`,
                colorVar: COLOURS[i % COLOURS.length]!,
                format: (v: number) => formatNumber(v, i18n.language, { maximumFractionDigits: 1 }),
              }))}
            />
          )}
        </Card>
      ))}
    </div>
  );
}

/**
 * /farming/progress: per field and season (a calendar year), tasks planned against done, and the
 * season's readings of a chosen field (soil moisture, rain) as charts.
 */
export function ProgressPage() {
  const { t } = useTranslation();
  const [season, setSeason] = useState(new Date().getFullYear());
  const from = new Date(Date.UTC(season, 0, 1)).toISOString();
  const to = new Date(Date.UTC(season + 1, 0, 1)).toISOString();
  const tasks = useQuery(tasksQueryOptions('all', from, to));
  const fields = useFields();
  const [chartFieldId, setChartFieldId] = useState<number | null>(null);
  const chartField = fields.data?.find((f) => f.id === chartFieldId) ?? fields.data?.[0] ?? null;
  // The season's end, or now while it runs (rounded to the minute so the charts' query key stays put).
  const seasonEnd = Math.min(Date.parse(to), Math.floor(Date.now() / 60_000) * 60_000);
  const rows = (fields.data ?? []).map((field) => {
    const own = (tasks.data ?? []).filter(
      (task) => task.field_ids.includes(field.id) && task.status !== 'abandoned',
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
      {chartField && (
        <>
          <div className="flex items-center gap-2 text-sm">
            <Label htmlFor="progress-chart-field">{t('farming.readings-of')}</Label>
            <NativeSelect
              id="progress-chart-field"
              value={chartField.id}
              onChange={(e) => setChartFieldId(Number(e.target.value))}
              data-testid="progress-chart-field"
            >
              {(fields.data ?? []).map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </NativeSelect>
          </div>
          <SeasonCharts field={chartField} from={Date.parse(from)} to={seasonEnd} />
        </>
      )}
    </div>
  );
}
