import type { Weather } from '@iot/contracts';
import { soilMoistureClass } from '@iot/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/shell/page-header';
import { Card } from '../../../components/ui/card';
import { api } from '../../../lib/api-client';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { type FarmingField, useFields, useFieldsCurrent } from '../api/farming-api';
import { latest } from './field-readings';
import { centreOf } from './geometry';

export function WeatherLine({ field }: { field: FarmingField }) {
  const { t, i18n } = useTranslation();
  const centre = centreOf(field);
  const weather = useQuery({
    queryKey: ['farming', 'weather', centre?.join(',')],
    queryFn: () => api<Weather>('/core/weather/', { query: { lat: centre![1], lng: centre![0] } }),
    enabled: !!centre,
  });
  if (!centre) return <p className="text-sm text-muted-foreground">{t('farming.no-boundary')}</p>;
  const w = weather.data;
  if (!w) return null;
  if (Object.keys(w.values).length === 0)
    return (
      <p className="text-sm text-muted-foreground">{t('farming.weather-none', { reason: w.reason ?? '' })}</p>
    );
  return (
    <ul className="text-sm" data-testid={`live-weather-${field.id}`}>
      {Object.entries(w.values).map(([key, v]) => (
        <li key={key}>
          {t(`farming.weather-${key}` as 'farming.weather-temperature', { defaultValue: key })}:{' '}
          {formatNumber(v.value, i18n.language, { maximumFractionDigits: 1 })} {v.unit}{' '}
          <span className="text-muted-foreground">
            (
            {v.source.kind === 'device'
              ? t('farming.source-device', {
                  id: v.source.device_id,
                  distance: formatNumber(v.source.distance_m ?? 0, i18n.language),
                })
              : t('farming.source-provider', {
                  provider: v.source.provider,
                  station: v.source.station ?? '',
                })}
            , {formatDateTime(v.observed_at, i18n.language)})
          </span>
        </li>
      ))}
    </ul>
  );
}

/** /farming/live: per field the latest soil moisture (pF class or %), soil temperature, leaf wetness and weather. */
export function LivePage() {
  const { t, i18n } = useTranslation();
  const fields = useFields();
  const list = fields.data ?? [];
  const ids = list.flatMap((f) => f.device_ids);
  const current = useFieldsCurrent(ids);
  const num = (v: number, digits = 1) => formatNumber(v, i18n.language, { maximumFractionDigits: digits });
  const staleMark = (s: { stale: boolean } | null) =>
    s?.stale ? (
      <span className="ml-1 text-amber-700" title={t('farming.stale')}>
        ⚠
      </span>
    ) : null;

  return (
    <div className="flex flex-col gap-4" data-testid="farming-live-page">
      <PageHeader title={t('page.farming-live')} />
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {list.map((field) => {
          const devices = (current?.data?.devices ?? []).filter((d) =>
            field.device_ids.includes(d.device_id),
          );
          const pf = latest(devices, 'soil_water_pf1');
          const percent = latest(devices, 'soil_humidity');
          const soilTemp = latest(devices, 'soil_temperature');
          const leaf = latest(devices, 'leaf_moisture');
          const cls = soilMoistureClass(pf?.value);
          return (
            <Card key={field.id} className="flex flex-col gap-2 p-4" data-testid={`live-field-${field.id}`}>
              <h2 className="font-semibold">{field.name}</h2>
              <p>
                {t('farming.soil-moisture')}:{' '}
                {pf && cls
                  ? `pF ${num(pf.value)} – ${t(`display.soil.${cls}` as 'farming.stale')}`
                  : percent
                    ? `${num(percent.value)} %`
                    : '–'}
                {staleMark(pf ?? percent)}
              </p>
              <p>
                {t('farming.soil-temperature')}: {soilTemp ? `${num(soilTemp.value)} °C` : '–'}
                {staleMark(soilTemp)}
              </p>
              <p>
                {t('farming.leaf-wetness')}: {leaf ? `${num(leaf.value)} %` : '–'}
                {staleMark(leaf)}
              </p>
              <WeatherLine field={field} />
            </Card>
          );
        })}
      </div>
    </div>
  );
}
