import { DownloadIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UplotChart } from '../../../components/chart/uplot-chart';
import { Button } from '../../../components/ui/button';
import { SheetBody } from '../../../components/ui/sheet';
import { ToggleGroup, ToggleGroupItem } from '../../../components/ui/toggle-group';
import { formatNumber } from '../../../lib/format';
import { type HistoryRange, useParkingHistory } from '../api/get-parking-history';
import type { ParkingArea, ParkingHistory } from '../types';

const RANGES: HistoryRange[] = ['24h', '1w', '1m', '1y'];

/** The history as CSV: locale-independent (ISO times, dot decimals), like the device data export. */
export function historyCsv(history: ParkingHistory): string {
  const cell = (v: number | null) => (v === null ? '' : String(Math.round(v * 1000) / 1000));
  const rows = history.buckets.map((b) =>
    [b.at, cell(b.free), cell(b.occupied), cell(b.unknown), cell(b.full_share)].join(','),
  );
  return `${['time,free,occupied,unknown,full_share', ...rows].join('\n')}\n`;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/** Data drawer: occupancy over day, week, month or year, and the stay figures. */
export function ParkingAreaData({ area }: { area: ParkingArea }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [range, setRange] = useState<HistoryRange>('24h');
  const history = useParkingHistory(area.id, range);
  const h = history.data;
  const minutes = (v: number | null) =>
    v === null ? '–' : t('parking.minutes', { value: formatNumber(v, lang, { maximumFractionDigits: 0 }) });
  const figures: [string, string][] = h
    ? [
        [t('parking.stays'), formatNumber(h.stays, lang)],
        [
          t('parking.turnover'),
          h.turnover === null ? '–' : formatNumber(h.turnover, lang, { maximumFractionDigits: 2 }),
        ],
        [t('parking.avg-stay'), minutes(h.avg_stay_minutes)],
        [t('parking.longest-stay'), minutes(h.longest_stay_minutes)],
        [
          t('parking.full-share'),
          h.full_share === null ? '–' : formatNumber(h.full_share, lang, { style: 'percent' }),
        ],
      ]
    : [];
  return (
    <SheetBody className="flex flex-col gap-4 py-2" data-testid="parking-data">
      <div className="flex flex-wrap items-center gap-2">
        <ToggleGroup type="single" value={range} onValueChange={(v) => v && setRange(v as HistoryRange)}>
          {RANGES.map((r) => (
            <ToggleGroupItem key={r} value={r} data-testid={`parking-range-${r}`}>
              {t(`parking.range.${r}`)}
            </ToggleGroupItem>
          ))}
        </ToggleGroup>
        {h && (
          <Button
            variant="outline"
            className="ml-auto"
            data-testid="parking-export-csv"
            onClick={() => download(`${area.name.replace(/[^\w.-]+/g, '_')}-${range}.csv`, historyCsv(h))}
          >
            <DownloadIcon />
            {t('parking.export-csv')}
          </Button>
        )}
      </div>
      {h && (
        <UplotChart
          lang={lang}
          height={260}
          testId="parking-history-chart"
          data={[
            h.buckets.map((b) => Date.parse(b.at) / 1000),
            h.buckets.map((b) => b.free),
            h.buckets.map((b) => b.occupied),
            h.buckets.map((b) => b.unknown),
          ]}
          series={[
            { label: t('parking.chart.free'), colorVar: '--chart-2' },
            { label: t('parking.chart.occupied'), colorVar: '--destructive' },
            { label: t('parking.chart.unknown'), colorVar: '--muted-foreground' },
          ]}
        />
      )}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm" data-testid="parking-figures">
        {figures.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </SheetBody>
  );
}
