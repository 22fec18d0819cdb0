import { formatArea } from '@iot/domain';
import { SaveIcon, Undo2Icon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { SheetBody, SheetFooter } from '../../../components/ui/sheet';
import { notifySuccess } from '../../../lib/notify';
import {
  type FarmingField,
  useCatalogue,
  useFieldDevices,
  useParcels,
  useSaveField,
} from '../api/farming-api';
import { areaOf, differsFromParcels, polygonFrom } from './geometry';
import { LazyFieldMap } from './lazy-field-map';

/**
 * Add / edit field drawer: name, soil, plant, the boundary drawn on the map (area live, as the server
 * computes it), parcels with the running sum that becomes the field's size, and the devices on it.
 */
export function FieldForm({ field, onDone }: { field: FarmingField | null; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language.startsWith('de') ? 'de' : 'en';
  const styleUrl = useMapStyleUrl();
  const soils = useCatalogue('soils');
  const plants = useCatalogue('plants');
  const parcels = useParcels();
  const devices = useFieldDevices();
  const save = useSaveField();
  const [name, setName] = useState(field?.name ?? '');
  const [soil, setSoil] = useState(field?.soil ?? '');
  const [plant, setPlant] = useState(field?.plant ?? '');
  const [vertices, setVertices] = useState<number[][]>(
    field?.boundary?.type === 'Polygon' ? (field.boundary.coordinates[0] ?? []).slice(0, -1) : [],
  );
  const [parcelIds, setParcelIds] = useState<number[]>(field?.parcels.map((p) => p.id) ?? []);
  const [deviceIds, setDeviceIds] = useState<number[]>(field?.device_ids ?? []);
  const boundary = useMemo(() => polygonFrom(vertices), [vertices]);
  const drawnArea = areaOf(boundary);
  const sum = (parcels.data ?? []).filter((p) => parcelIds.includes(p.id)).reduce((s, p) => s + p.size_m2, 0);
  const toggle = (list: number[], id: number) =>
    list.includes(id) ? list.filter((x) => x !== id) : [...list, id];

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        id: field?.id ?? null,
        name: name.trim(),
        soil: soil || null,
        plant: plant || null,
        boundary,
        parcels: parcelIds,
        device_ids: deviceIds,
      },
      {
        onSuccess: () => {
          notifySuccess(t('farming.field-saved'));
          onDone();
        },
      },
    );
  };
  const entryName = (e: { name_de: string; name_en: string }) => (lang === 'de' ? e.name_de : e.name_en);

  return (
    <form
      onSubmit={submit}
      className="flex flex-1 flex-col overflow-hidden"
      noValidate
      data-testid="field-form"
    >
      <SheetBody className="flex flex-col gap-4 py-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="field-name">{t('farming.name')} *</Label>
          <Input
            id="field-name"
            data-testid="field-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="grid grid-cols-2 gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="field-soil">{t('farming.soil')}</Label>
            <NativeSelect
              id="field-soil"
              data-testid="field-soil"
              value={soil}
              onChange={(e) => setSoil(e.target.value)}
            >
              <option value="">–</option>
              {(soils.data ?? []).map((s) => (
                <option key={s.code} value={s.code}>
                  {s.code} – {entryName(s)}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="field-plant">{t('farming.plant')}</Label>
            <NativeSelect
              id="field-plant"
              data-testid="field-plant"
              value={plant}
              onChange={(e) => setPlant(e.target.value)}
            >
              <option value="">–</option>
              {(plants.data ?? []).map((p) => (
                <option key={p.code} value={p.code}>
                  {entryName(p)}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <div className="flex items-center justify-between">
            <Label>{t('farming.boundary')}</Label>
            <span className="text-sm" data-testid="field-drawn-area">
              {boundary ? formatArea(drawnArea, lang) : t('farming.draw-hint')}
            </span>
          </div>
          <div className="h-64 rounded border">
            {styleUrl !== undefined && (
              <LazyFieldMap
                testId="field-editor-map"
                styleUrl={styleUrl}
                polygons={[]}
                draft={vertices}
                onMapClick={(p) => setVertices((v) => [...v, p])}
              />
            )}
          </div>
          <div className="flex gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => setVertices((v) => v.slice(0, -1))}
              data-testid="field-undo-vertex"
            >
              <Undo2Icon />
              {t('farming.undo-vertex')}
            </Button>
            <Button type="button" variant="outline" size="sm" onClick={() => setVertices([])}>
              {t('farming.clear-boundary')}
            </Button>
          </div>
        </div>
        <fieldset className="flex flex-col gap-1" data-testid="field-parcels">
          <legend className="text-sm font-medium">{t('farming.parcels')}</legend>
          {(parcels.data ?? []).map((p) => (
            <label key={p.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={parcelIds.includes(p.id)}
                onChange={() => setParcelIds((l) => toggle(l, p.id))}
                data-testid={`field-parcel-${p.id}`}
              />
              <span>
                {p.parcel_id} · {p.registration_number} · {formatArea(p.size_m2, lang)}
                {p.field && p.field.id !== field?.id && (
                  <span className="text-muted-foreground">
                    {' '}
                    ({t('farming.moves-from', { name: p.field.name })})
                  </span>
                )}
              </span>
            </label>
          ))}
          <p className="text-sm font-medium" data-testid="field-parcel-sum">
            {t('farming.parcel-sum', { size: formatArea(sum, lang), count: parcelIds.length })}
          </p>
          {boundary && differsFromParcels(drawnArea, sum) && (
            <p className="text-sm text-amber-700" data-testid="field-area-mismatch">
              {t('farming.area-mismatch')}
            </p>
          )}
        </fieldset>
        <fieldset className="flex flex-col gap-1" data-testid="field-devices">
          <legend className="text-sm font-medium">{t('farming.devices')}</legend>
          {(devices.data ?? []).map((d) => (
            <label key={d.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={deviceIds.includes(d.id)}
                onChange={() => setDeviceIds((l) => toggle(l, d.id))}
              />
              {d.name}
            </label>
          ))}
        </fieldset>
      </SheetBody>
      <SheetFooter>
        <Button type="submit" disabled={name.trim() === '' || save.isPending} data-testid="field-save">
          <SaveIcon />
          {t('common.save')}
        </Button>
      </SheetFooter>
    </form>
  );
}
