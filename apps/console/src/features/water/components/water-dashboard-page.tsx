import type { NwaDetails } from '@iot/contracts';
import { SettingsIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LazyDeviceMap } from '../../../components/map/lazy-device-map';
import type { MapPoint } from '../../../components/map/map-points';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { useOverlay } from '../../../components/shell/overlay-host';
import { PageHeader } from '../../../components/shell/page-header';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { formatDateTime, formatNumber, localeTag } from '../../../lib/format';
import { useSharedDevices, useWaterDetails, useWaterUsage } from '../api/water-api';
import { Sparkline } from './sparkline';
import { useWaterId } from './use-water-id';
import { formatM3, formatPercent } from './water-format';
import { WaterSettingsForm } from './water-settings-form';

function Gauge({ value, max, testId }: { value: number; max: number | null; testId: string }) {
  const share = max ? Math.min(100, (value / max) * 100) : 0;
  const colour = share >= 100 ? 'bg-red-600' : share >= 80 ? 'bg-amber-500' : 'bg-sky-600';
  return (
    <div className="h-2 w-full rounded bg-muted" data-testid={testId}>
      <div className={`h-2 rounded ${colour}`} style={{ width: `${share}%` }} />
    </div>
  );
}

/** A date in the association's time zone (the water year's first and last day). */
function formatLocalDate(iso: string, timeZone: string, lang: string): string {
  return new Intl.DateTimeFormat(localeTag(lang), { dateStyle: 'medium', timeZone }).format(new Date(iso));
}

function age(minutes: number | null, lang: string, t: (k: string, o?: object) => string): string {
  if (minutes === null) return '–';
  if (minutes < 120) return t('water.minutes-ago', { n: formatNumber(minutes, lang) });
  return t('water.hours-ago', { n: formatNumber(Math.round(minutes / 60), lang) });
}

/** /water/:id: the association's use against its permit, per member, and its shared devices. */
export function WaterDashboardPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = useWaterId();
  const details = useWaterDetails(id);
  const usage = useWaterUsage(id);
  const shared = useSharedDevices(id);
  const u = usage.data;
  const overlay = useOverlay();
  const styleUrl = useMapStyleUrl();
  // Each caller's map holds what row-level security shows it of the shares (members: their own, or all
  // where the association lets them); control shares are drawn orange.
  const points: MapPoint[] = (shared.data ?? []).flatMap((d) =>
    d.latitude !== null && d.longitude !== null
      ? [
          {
            id: d.device_id,
            latitude: d.latitude,
            longitude: d.longitude,
            color: d.access === 'control' ? ([234, 88, 12] as const) : ([2, 132, 199] as const),
          },
        ]
      : [],
  ) as MapPoint[];
  const openSettings = (nwa: NwaDetails) =>
    overlay.openDialog({
      title: t('water.settings'),
      testId: 'water-settings-dialog',
      render: (close) => <WaterSettingsForm nwa={nwa} onDone={close} />,
    });
  return (
    <div className="flex flex-col gap-4" data-testid="water-dashboard-page">
      <PageHeader
        title={details.data?.name ?? t('page.water-dashboard')}
        actions={
          details.data?.is_admin && (
            <Button
              variant="outline"
              onClick={() => openSettings(details.data!)}
              data-testid="water-settings"
            >
              <SettingsIcon />
              {t('water.settings')}
            </Button>
          )
        }
      />
      {u && (
        <div className="grid gap-4 md:grid-cols-3">
          <Card>
            <CardHeader>
              <CardTitle>{t('water.total-year')}</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-2">
              <div className="text-2xl font-semibold" data-testid="water-total-used">
                {formatM3(u.total_used, lang, 0)}
              </div>
              <div className="text-sm text-muted-foreground">
                {t('water.of-permit', { permit: formatM3(u.max_volume_per_year, lang, 0) })}
              </div>
              <Gauge value={u.total_used} max={u.max_volume_per_year} testId="water-total-gauge" />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t('water.max-hourly')}</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-2">
              <div className="text-2xl font-semibold">{formatM3(u.max_hourly, lang, 2)}</div>
              <div className="text-sm text-muted-foreground">
                {t('water.hourly-cap', { cap: formatM3(u.max_flow_per_hour, lang, 1) })}
              </div>
              <Gauge value={u.max_hourly} max={u.max_flow_per_hour} testId="water-hourly-gauge" />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t('water.water-year')}</CardTitle>
            </CardHeader>
            <CardContent className="text-sm">
              {formatLocalDate(u.year_start, u.time_zone, lang)} –{' '}
              {formatLocalDate(new Date(new Date(u.year_end).getTime() - 1).toISOString(), u.time_zone, lang)}
              <div className="text-muted-foreground">{u.time_zone}</div>
            </CardContent>
          </Card>
        </div>
      )}
      <Card className="p-0">
        <Table data-testid="water-usage-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('water.member')}</TableHead>
              <TableHead className="text-right">{t('water.used')}</TableHead>
              <TableHead className="text-right">{t('water.allowance')}</TableHead>
              <TableHead className="text-right">%</TableHead>
              <TableHead className="text-right">{t('water.remaining')}</TableHead>
              <TableHead className="text-right">{t('water.projected')}</TableHead>
              <TableHead className="text-right">{t('water.max-hourly')}</TableHead>
              <TableHead>{t('water.last-reading')}</TableHead>
              <TableHead>{t('water.last-30-days')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(u?.members ?? []).map((m) => (
              <TableRow key={m.company_id} data-testid={`water-usage-${m.company_id}`}>
                <TableCell className="font-medium">{m.name}</TableCell>
                <TableCell className="text-right">{formatM3(m.used, lang, 0)}</TableCell>
                <TableCell className="text-right">{formatM3(m.allowance, lang, 0)}</TableCell>
                <TableCell
                  className={`text-right ${(m.percent ?? 0) >= 100 ? 'text-red-600' : (m.percent ?? 0) >= 80 ? 'text-amber-600' : ''}`}
                  data-testid={`water-percent-${m.company_id}`}
                >
                  {formatPercent(m.percent, lang)}
                </TableCell>
                <TableCell className="text-right">{formatM3(m.remaining, lang, 0)}</TableCell>
                <TableCell className="text-right">{formatM3(m.projected, lang, 0)}</TableCell>
                <TableCell className={`text-right ${m.hourly_cap_exceeded ? 'text-red-600' : ''}`}>
                  {formatM3(m.max_hourly, lang, 2)} / {formatM3(m.hourly_cap, lang, 1)}
                </TableCell>
                <TableCell>{age(m.last_reading_age_minutes, lang, t as never)}</TableCell>
                <TableCell>
                  <Sparkline values={m.daily} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      <Card className="p-0">
        <CardHeader>
          <CardTitle>{t('menu.water-shared')}</CardTitle>
        </CardHeader>
        {points.length > 0 && styleUrl !== undefined && (
          <div className="mx-4 mb-4 h-72 rounded-xl border">
            <LazyDeviceMap points={points} styleUrl={styleUrl} testId="water-map" />
          </div>
        )}
        <Table data-testid="water-dashboard-shared">
          <TableHeader>
            <TableRow>
              <TableHead>{t('water.device')}</TableHead>
              <TableHead>{t('water.owner')}</TableHead>
              <TableHead className="text-right">{t('water.counter')}</TableHead>
              <TableHead>{t('water.last-reading')}</TableHead>
              <TableHead>{t('water.position')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(shared.data ?? []).map((d) => (
              <TableRow key={d.device_id} data-testid={`water-dashboard-device-${d.device_id}`}>
                <TableCell className="font-medium">{d.name}</TableCell>
                <TableCell>{d.owner_name}</TableCell>
                <TableCell className="text-right">
                  {d.last_value === null
                    ? '–'
                    : formatNumber(d.last_value, lang, { maximumFractionDigits: 2 })}
                </TableCell>
                <TableCell>{formatDateTime(d.last_reading_at, lang)}</TableCell>
                <TableCell className="text-muted-foreground">
                  {d.latitude !== null && d.longitude !== null
                    ? `${formatNumber(d.latitude, lang, { maximumFractionDigits: 4 })}, ${formatNumber(d.longitude, lang, { maximumFractionDigits: 4 })}`
                    : '–'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
    </div>
  );
}
