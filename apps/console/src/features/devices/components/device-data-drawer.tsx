import { DownloadIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PeriodPicker, usePeriod } from '../../../components/chart/period-picker';
import { type ChartSeries, UplotChart } from '../../../components/chart/uplot-chart';
import { Button } from '../../../components/ui/button';
import { SheetBody } from '../../../components/ui/sheet';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { numericFields, toChartData, uplotFieldData } from '../../../lib/chart-data';
import { useDeviceData } from '../../../lib/devices/get-device-data';
import { downloadText } from '../../../lib/download-text';
import { formatDateTime } from '../../../lib/format';
import type { DataPoint, Device } from '../../../types/device';
import { useDevice } from '../api/get-device';
import { buildCsv, csvFileName } from '../csv';
import { metadataEntries, metadataLabels } from '../device-columns';
import { FieldValue, fieldLabel } from './device-cells';

/** Most rows the table view renders; the CSV always holds every point of the answer. */
const TABLE_LIMIT = 2000;

function DataTable({
  fields,
  points,
  labels,
}: {
  fields: string[];
  points: DataPoint[];
  labels: Map<string, string>;
}) {
  const { t, i18n } = useTranslation();
  const rows = useMemo(
    () =>
      [...points].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at)).slice(0, TABLE_LIMIT),
    [points],
  );
  return (
    <div
      className="max-h-[60vh] overflow-auto rounded-md border"
      data-testid="data-table"
      data-rows={rows.length}
    >
      <table className="w-full text-sm">
        <thead className="sticky top-0 bg-muted text-xs text-muted-foreground">
          <tr>
            <th className="px-2 py-1.5 text-left">{t('devices.data.time')}</th>
            {fields.map((f) => (
              <th key={f} className="px-2 py-1.5 text-right">
                {fieldLabel(f, labels)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.created_at} className="border-t" data-testid="data-table-row">
              <td className="px-2 py-1 whitespace-nowrap">{formatDateTime(p.created_at, i18n.language)}</td>
              {fields.map((f) => (
                <td key={f} className="px-2 py-1 text-right">
                  <FieldValue field={f} value={p.data[f]} />
                  {p.min && p.max && p.min[f] !== undefined && (
                    <span className="block text-xs text-muted-foreground">
                      <FieldValue field={f} value={p.min[f]} /> – <FieldValue field={f} value={p.max[f]} />
                    </span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** View data (the wide drawer): a uPlot chart per numeric field over a period, a table, CSV export. */
export function DeviceDataDrawer({ device: row }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const details = useDevice(row.id);
  const device = details.data ?? row;
  const labels = metadataLabels(device);
  const fields = useMemo(
    () =>
      numericFields(
        device.data ?? {},
        metadataEntries(device).map((e) => e.data_field),
      ),
    [device],
  );
  const period = usePeriod();
  const [view, setView] = useState('chart');
  const data = useDeviceData({ id: row.id, fields, ...period.bounds }, fields.length > 0);
  const series = data.data;
  const chart = useMemo(() => (series ? toChartData(series, fields) : null), [series, fields]);

  const exportCsv = () => {
    if (!series) return;
    downloadText(
      buildCsv(fields, series.points),
      csvFileName(device.name, period.bounds.from, period.bounds.to),
    );
  };

  return (
    <SheetBody className="flex flex-col gap-3 pb-4" data-testid="device-data">
      <PeriodPicker state={period} testId="data" />
      <Tabs value={view} onValueChange={setView} className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <TabsList>
            <TabsTrigger value="chart" data-testid="data-view-chart">
              {t('devices.data.chart')}
            </TabsTrigger>
            <TabsTrigger value="table" data-testid="data-view-table">
              {t('devices.data.table')}
            </TabsTrigger>
          </TabsList>
          <span
            className="text-xs text-muted-foreground"
            data-testid="data-summary"
            data-total={series?.total ?? ''}
            data-downsampled={series?.downsampled ? 'true' : 'false'}
            data-from={new Date(period.bounds.from).toISOString()}
          >
            {series &&
              (series.downsampled
                ? t('devices.data.downsampled', { count: series.total, buckets: series.points.length })
                : t('devices.data.points', { count: series.points.length }))}
            {data.isFetching && ` · ${t('common.loading')}`}
          </span>
          <Button
            size="sm"
            variant="outline"
            className="ml-auto"
            disabled={!series || series.points.length === 0}
            onClick={exportCsv}
            data-testid="data-export"
          >
            <DownloadIcon />
            {t('devices.data.export')}
          </Button>
        </div>
        {fields.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="data-no-fields">
            {details.isPending ? t('common.loading') : t('devices.data.no-fields')}
          </p>
        ) : (
          <>
            <TabsContent
              value="chart"
              className="flex flex-col gap-4"
              data-testid="data-charts"
              data-fields={fields.length}
            >
              {chart?.fields.map((f, index) => {
                const label = fieldLabel(f.field, labels);
                const withBand = f.min !== null && f.max !== null;
                const chartSeries: ChartSeries[] = withBand
                  ? [
                      { label },
                      { label: `${label} min`, bandEdge: true },
                      { label: `${label} max`, bandEdge: true },
                    ]
                  : [{ label }];
                return (
                  <section
                    key={f.field}
                    className="flex flex-col gap-1"
                    data-testid="data-chart"
                    data-field={f.field}
                  >
                    <h3 className="text-sm font-medium">{label}</h3>
                    <UplotChart
                      data={uplotFieldData(chart, index) as uPlotData}
                      series={chartSeries}
                      {...(withBand ? { bands: [[3, 2] as [number, number]] } : {})}
                      height={180}
                      lang={i18n.language}
                      timeLabel={t('devices.data.time')}
                    />
                  </section>
                );
              })}
            </TabsContent>
            <TabsContent value="table">
              {series && <DataTable fields={fields} points={series.points} labels={labels} />}
            </TabsContent>
          </>
        )}
      </Tabs>
    </SheetBody>
  );
}

type uPlotData = import('uplot').AlignedData;
