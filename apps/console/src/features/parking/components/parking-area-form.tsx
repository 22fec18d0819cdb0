import {
  FORM_RULES,
  PARKING_AREA_ICONS,
  PARKING_AREA_TYPES,
  SENSOR_TYPE_CODES,
  splitEmails,
} from '@iot/domain';
import { SaveIcon } from 'lucide-react';
import { useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { SheetBody, SheetFooter } from '../../../components/ui/sheet';
import { useDevices } from '../../../lib/devices/get-devices';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import { useSaveParkingArea } from '../api/save-parking-area';
import type { ParkingArea } from '../types';
import { LazyParkingMap } from './lazy-parking-map';

interface Bay {
  device_id: number;
  label: string;
}

interface ParkingFormValues {
  name: string;
  type: 'FIX' | 'AI';
  icon: keyof typeof PARKING_AREA_ICONS;
  capacity: string;
  area_size: string;
  max_parking_time: string;
  grace_period: string;
  latitude: string;
  longitude: string;
  valid_from: string;
  valid_to: string;
  alert_free_below: string;
  alarm_emails: string;
  alarm_phone: string;
  alarm_system: boolean;
  devices: Bay[];
}

type AlarmAction = ParkingArea['alarm_actions'][number];
/** The channels this form edits; any other action of the area's alarm rule is kept as it is. */
const FORM_CHANNELS = ['email', 'sms', 'system'];

const configText = (a: AlarmAction, key: string) => {
  const value = a.config[key];
  return typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : '';
};

/**
 * The area's alarm actions from the form: one email per address, one SMS, the system message; an action
 * already there for the same address or channel keeps its own texts.
 */
function alarmActions(
  v: Pick<ParkingFormValues, 'alarm_emails' | 'alarm_phone' | 'alarm_system'>,
  current: readonly AlarmAction[],
  texts: { subject: string; body: string },
) {
  const of = (channel: string, match: (a: AlarmAction) => boolean = () => true) =>
    current.find((a) => a.channel === channel && match(a));
  const keep = (a: AlarmAction | undefined) => (a ? { channel: a.channel, config: a.config } : undefined);
  const emails = [...new Set(splitEmails(v.alarm_emails.trim()))].map(
    (recipient) =>
      keep(of('email', (a) => configText(a, 'recipient') === recipient)) ?? {
        channel: 'email',
        config: { recipient, subject: texts.subject, body: texts.body },
      },
  );
  const phone = v.alarm_phone.trim();
  const sms = phone
    ? [
        keep(of('sms', (a) => configText(a, 'phone') === phone)) ?? {
          channel: 'sms',
          config: { phone, body: '{value}' },
        },
      ]
    : [];
  const system = v.alarm_system
    ? [keep(of('system')) ?? { channel: 'system', config: { subject: texts.subject, text: '{value}' } }]
    : [];
  const others = current.filter((a) => !FORM_CHANNELS.includes(a.channel)).map((a) => keep(a)!);
  return [...emails, ...sms, ...system, ...others];
}

/** The outer ring of an area's outline without its closing vertex (the editor's vertices). */
function outlineOf(area: ParkingArea | null): number[][] {
  const g = area?.geometry as { type?: string; coordinates?: unknown } | null | undefined;
  const polygon =
    g?.type === 'Polygon'
      ? (g.coordinates as number[][][])
      : g?.type === 'MultiPolygon'
        ? (g.coordinates as number[][][][])[0]
        : undefined;
  const ring = polygon?.[0] ?? [];
  const [first, last] = [ring[0], ring.at(-1)];
  return ring.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]
    ? ring.slice(0, -1)
    : ring;
}

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
const num = (s: string) => (s.trim() === '' ? null : Number(s));

/** Add / edit / view car park drawer body (ROLE_ADMIN, ROLE_MAINUSER edit; others see it read-only). */
export function ParkingAreaForm({
  area,
  onDone,
  readOnly = false,
}: {
  area: ParkingArea | null;
  onDone: () => void;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const devices = useDevices();
  const save = useSaveParkingArea();
  const { form, summary } = useDomainForm<ParkingFormValues>(
    {
      name: area?.name ?? '',
      type: area?.type ?? 'FIX',
      icon: area?.icon ?? 'PS',
      capacity: text(area?.capacity),
      area_size: text(area?.area_size),
      max_parking_time: text(area?.max_parking_time),
      grace_period: text(area?.grace_period ?? 0),
      latitude: text(area?.latitude),
      longitude: text(area?.longitude),
      valid_from: area?.valid_from ?? '',
      valid_to: area?.valid_to ?? '',
      alert_free_below: text(area?.alert_free_below),
      alarm_emails: (area?.alarm_actions ?? [])
        .filter((a) => a.channel === 'email')
        .map((a) => configText(a, 'recipient'))
        .join(', '),
      alarm_phone: configText(
        area?.alarm_actions.find((a) => a.channel === 'sms') ?? { id: 0, channel: '', config: {} },
        'phone',
      ),
      alarm_system: (area?.alarm_actions ?? []).some((a) => a.channel === 'system'),
      devices: area?.bays.map((b) => ({ device_id: b.device_id, label: b.label ?? '' })) ?? [],
    },
    FORM_RULES.parkingArea,
  );
  const type = useWatch({ control: form.control, name: 'type' });
  const icon = useWatch({ control: form.control, name: 'icon' });
  const code = type === 'FIX' ? SENSOR_TYPE_CODES.PARKINGSENSOR : SENSOR_TYPE_CODES.AI_PARKINGSENSOR;
  const candidates = (devices.data ?? []).filter((d) => ((d.sensor_type ?? 0) & code) !== 0);
  const others = (area?.alarm_actions ?? []).filter((a) => !FORM_CHANNELS.includes(a.channel)).length;
  const styleUrl = useMapStyleUrl();
  const [outline, setOutline] = useState<number[][]>(() => outlineOf(area));
  const centre: [number, number] | null =
    area?.longitude != null && area?.latitude != null ? [area.longitude, area.latitude] : null;

  const onSubmit = form.handleSubmit((v) =>
    save.mutate(
      {
        id: area?.id ?? null,
        name: v.name.trim(),
        type: v.type,
        icon: v.icon,
        capacity: num(v.capacity),
        area_size: v.type === 'AI' ? num(v.area_size) : null,
        max_parking_time: num(v.max_parking_time),
        grace_period: num(v.grace_period) ?? 0,
        latitude: num(v.latitude),
        longitude: num(v.longitude),
        geometry: outline.length >= 3 ? { type: 'Polygon', coordinates: [[...outline, outline[0]!]] } : null,
        valid_from: v.icon === 'TP' ? v.valid_from || null : null,
        valid_to: v.icon === 'TP' ? v.valid_to || null : null,
        alert_free_below: num(v.alert_free_below),
        alarm_actions: alarmActions(v, area?.alarm_actions ?? [], {
          subject: t('parking.notify-subject'),
          body: t('parking.notify-body'),
        }),
        devices: v.devices
          .filter((b) => candidates.some((d) => d.id === b.device_id))
          .map((b) => ({ device_id: b.device_id, label: b.label.trim() || null })),
      },
      {
        onSuccess: () => {
          notifySuccess(t('parking.saved'));
          onDone();
        },
      },
    ),
  );
  const field = (name: keyof ParkingFormValues, label: string, inputType = 'text', required = false) => (
    <FormField name={name} label={label} summary={summary} required={required}>
      <Input
        id={name}
        type={inputType}
        disabled={readOnly}
        data-testid={`parking-${name}`}
        {...form.register(name)}
      />
    </FormField>
  );
  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-1 flex-col overflow-hidden"
      noValidate
      data-testid="parking-form"
    >
      <SheetBody className="flex flex-col gap-4 py-2">
        {field('name', t('parking.name'), 'text', true)}
        <div className="grid grid-cols-2 gap-4">
          <FormField name="type" label={t('parking.type')} summary={summary}>
            <NativeSelect id="type" disabled={readOnly} data-testid="parking-type" {...form.register('type')}>
              {PARKING_AREA_TYPES.map((x) => (
                <option key={x} value={x}>
                  {t(`parking.type-hint.${x}`)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField name="icon" label={t('parking.icon')} summary={summary}>
            <NativeSelect id="icon" disabled={readOnly} data-testid="parking-icon" {...form.register('icon')}>
              {Object.keys(PARKING_AREA_ICONS).map((x) => (
                <option key={x} value={x}>
                  {t(`parking.icon.${x as keyof typeof PARKING_AREA_ICONS}`)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          {field('capacity', t('parking.capacity'), 'number', true)}
          {type === 'AI' && field('area_size', t('parking.area-size'), 'number')}
          {field('max_parking_time', t('parking.max-time'), 'number')}
          {field('grace_period', t('parking.grace'), 'number')}
          {field('latitude', t('parking.latitude'), 'number')}
          {field('longitude', t('parking.longitude'), 'number')}
          {icon === 'TP' && field('valid_from', t('parking.valid-from'), 'date')}
          {icon === 'TP' && field('valid_to', t('parking.valid-to'), 'date')}
          {field('alert_free_below', t('parking.alert-below'), 'number')}
        </div>
        <div className="flex flex-col gap-1" data-testid="parking-outline">
          <div className="flex items-center justify-between text-sm font-medium">
            {t('parking.outline')}
            {!readOnly && outline.length > 0 && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setOutline([])}
                data-testid="parking-outline-clear"
              >
                {t('parking.outline-clear')}
              </Button>
            )}
          </div>
          {styleUrl !== undefined && (
            <div className="h-56 overflow-hidden rounded-md border">
              <LazyParkingMap
                areas={[]}
                draft={outline}
                center={centre}
                styleUrl={styleUrl}
                testId="parking-outline-map"
                onMapClick={readOnly ? undefined : (at) => setOutline((o) => [...o, at])}
              />
            </div>
          )}
          {!readOnly && (
            <p className="text-xs text-muted-foreground">
              {t('parking.outline-hint', { count: outline.length })}
            </p>
          )}
        </div>
        <fieldset className="flex flex-col gap-3 rounded-md border p-3" data-testid="parking-notify">
          <legend className="px-1 text-sm font-medium">{t('parking.notify')}</legend>
          {field('alarm_emails', t('parking.notify-emails'))}
          {field('alarm_phone', t('parking.notify-phone'), 'tel')}
          <Controller
            control={form.control}
            name="alarm_system"
            render={({ field: { value, onChange } }) => (
              <label className="flex items-center gap-2 text-sm" htmlFor="alarm_system">
                <Checkbox
                  id="alarm_system"
                  checked={value}
                  disabled={readOnly}
                  data-testid="parking-alarm_system"
                  onCheckedChange={(on) => onChange(on === true)}
                />
                {t('parking.notify-system')}
              </label>
            )}
          />
          {others > 0 && (
            <p className="text-xs text-muted-foreground">{t('parking.notify-others', { count: others })}</p>
          )}
        </fieldset>
        <FormField name="devices" label={t('parking.devices')} summary={summary}>
          <Controller
            control={form.control}
            name="devices"
            render={({ field: { value, onChange } }) => (
              <div className="flex flex-col gap-2" data-testid="parking-devices">
                {candidates.length === 0 && (
                  <p className="text-sm text-muted-foreground">{t('parking.no-sensors')}</p>
                )}
                {candidates.map((d) => {
                  const bay = value.find((b) => b.device_id === d.id);
                  return (
                    <div
                      key={d.id}
                      className="flex items-center gap-2"
                      data-testid={`parking-device-${d.id}`}
                    >
                      <Checkbox
                        checked={!!bay}
                        disabled={readOnly}
                        aria-label={d.name}
                        data-testid={`parking-device-check-${d.id}`}
                        onCheckedChange={(on) =>
                          onChange(
                            on
                              ? [...value, { device_id: d.id, label: '' }]
                              : value.filter((b) => b.device_id !== d.id),
                          )
                        }
                      />
                      <span className="min-w-0 flex-1 truncate text-sm">{d.name}</span>
                      {type === 'FIX' && bay && (
                        <Input
                          className="w-28"
                          placeholder={t('parking.bay-label')}
                          aria-label={t('parking.bay-label')}
                          disabled={readOnly}
                          value={bay.label}
                          data-testid={`parking-device-label-${d.id}`}
                          onChange={(e) =>
                            onChange(
                              value.map((b) => (b.device_id === d.id ? { ...b, label: e.target.value } : b)),
                            )
                          }
                        />
                      )}
                    </div>
                  );
                })}
              </div>
            )}
          />
        </FormField>
      </SheetBody>
      {!readOnly && (
        <SheetFooter className="items-center">
          <FormErrorMarker summary={summary} className="mr-auto" />
          <Button variant="outline" onClick={onDone} data-testid="parking-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={!summary.canSubmit || save.isPending} data-testid="parking-submit">
            <SaveIcon />
            {t('common.save')}
          </Button>
        </SheetFooter>
      )}
    </form>
  );
}
