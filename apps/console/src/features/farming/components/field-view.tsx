import { formatArea } from '@iot/domain';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { type FarmingField, useCatalogue, useFieldDevices, useFieldsCurrent } from '../api/farming-api';
import { fieldMoisture, lastReadingAt, latest } from './field-readings';
import { differsFromParcels } from './geometry';
import { WeatherLine } from './live-page';

/**
 * The "farming field (view)" drawer (spec section 2): what the field is (plant, soil, size, boundary
 * area), its parcels and devices, and its latest readings with the weather at its centre.
 */
export function FieldView({ field, onEdit }: { field: FarmingField; onEdit?: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language.startsWith('de') ? 'de' : 'en';
  const soils = useCatalogue('soils');
  const plants = useCatalogue('plants');
  const devices = useFieldDevices();
  const current = useFieldsCurrent(field.device_ids);
  const nameOf = (list: typeof soils.data, code: string | null) => {
    const e = list?.find((x) => x.code === code);
    return e ? (lang === 'de' ? e.name_de : e.name_en) : (code ?? '–');
  };
  const own = current.data?.devices ?? [];
  const moisture = fieldMoisture(own);
  const soilTemp = latest(own, 'soil_temperature');
  const num = (v: number) => formatNumber(v, i18n.language, { maximumFractionDigits: 1 });
  const last = lastReadingAt(own);
  const rows: Array<[string, string, string]> = [
    ['plant', t('farming.plant'), nameOf(plants.data, field.plant)],
    ['soil', t('farming.soil'), nameOf(soils.data, field.soil)],
    ['size', t('farming.size'), formatArea(field.size_m2, lang)],
    [
      'boundary',
      t('farming.boundary-area'),
      field.boundary_area_m2 === null ? '–' : formatArea(field.boundary_area_m2, lang),
    ],
    [
      'moisture',
      t('farming.soil-moisture'),
      moisture
        ? moisture.kind === 'pf'
          ? `pF ${num(moisture.reading.value)}${moisture.cls ? ` – ${t(`display.soil.${moisture.cls}` as 'farming.stale')}` : ''}`
          : `${num(moisture.reading.value)} %`
        : '–',
    ],
    ['soil-temperature', t('farming.soil-temperature'), soilTemp ? `${num(soilTemp.value)} °C` : '–'],
    ['last-reading', t('farming.last-reading'), last ? formatDateTime(last, i18n.language) : '–'],
  ];

  return (
    <div className="flex flex-col gap-4 p-4" data-testid="field-view">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([key, label, value]) => (
          <div key={key} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd data-testid={`field-view-${key}`}>
              {value}
              {key === 'moisture' && moisture?.reading.stale && (
                <span className="ml-1 text-amber-700" title={t('farming.stale')}>
                  ⚠
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      {differsFromParcels(field.boundary_area_m2, field.size_m2) && (
        <p className="text-sm text-amber-700">{t('farming.area-mismatch')}</p>
      )}
      <section>
        <h3 className="font-semibold">
          {t('farming.parcels')} ({field.count_parcels})
        </h3>
        <ul className="text-sm" data-testid="field-view-parcels">
          {field.parcels.map((p) => (
            <li key={p.id}>
              {p.parcel_id} <span className="font-mono">{p.registration_number}</span> –{' '}
              {formatArea(p.size_m2, lang)}
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3 className="font-semibold">
          {t('farming.devices')} ({field.count_devices})
        </h3>
        <ul className="text-sm" data-testid="field-view-devices">
          {(devices.data ?? [])
            .filter((d) => field.device_ids.includes(d.id))
            .map((d) => (
              <li key={d.id}>{d.name}</li>
            ))}
        </ul>
      </section>
      <section>
        <h3 className="font-semibold">{t('farming.weather')}</h3>
        <WeatherLine field={field} />
      </section>
      {onEdit && (
        <Button variant="outline" onClick={onEdit} data-testid="field-view-edit">
          {t('common.edit')}
        </Button>
      )}
    </div>
  );
}
