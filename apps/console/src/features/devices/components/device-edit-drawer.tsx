import { DEVICE_STATES, type FieldRules, parseDecimal, rule } from '@iot/domain';
import { SaveIcon } from 'lucide-react';
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { SheetBody, SheetFooter } from '../../../components/ui/sheet';
import { useDevices } from '../../../lib/devices/get-devices';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import type { DeviceDetails } from '../../../types/device';
import { useCodecs } from '../../codecs/api/codecs';
import { useDevice } from '../api/get-device';
import { useUpdateDevice } from '../api/update-device';
import { filterOptions } from '../device-filters';
import { useCanEditDevices } from './can-edit';

interface DeviceFormValues {
  name: string;
  description: string;
  comment: string;
  location: string;
  latitude: string;
  longitude: string;
  group_id: string;
  codec_id: string;
  state: string;
}

const RULES: FieldRules = {
  name: ['required', rule.maxLength(255)],
  description: [rule.maxLength(4000)],
  comment: [rule.maxLength(4000)],
  location: [rule.maxLength(1000)],
  latitude: [rule.range(-90, 90)],
  longitude: [rule.range(-180, 180)],
  state: ['required'],
};
const NO_GROUP = '__none';
const NO_CODEC = '__driver';

function numberOrNull(text: string): number | null {
  return text.trim() === '' ? null : parseDecimal(text);
}

function EditForm({ device, onDone }: { device: DeviceDetails; onDone: () => void }) {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const update = useUpdateDevice();
  const devices = useDevices();
  const groups = useMemo(() => filterOptions(devices.data ?? []).groups, [devices.data]);
  const codecs = useCodecs();
  const { form, summary } = useDomainForm<DeviceFormValues>(
    {
      name: device.name,
      description: device.description ?? '',
      comment: device.comment ?? '',
      location: device.location ?? '',
      latitude: device.latitude === null || device.latitude === undefined ? '' : String(device.latitude),
      longitude: device.longitude === null || device.longitude === undefined ? '' : String(device.longitude),
      group_id: device.group?.id ? String(device.group.id) : NO_GROUP,
      codec_id: device.codec_id ? String(device.codec_id) : NO_CODEC,
      state: device.state,
    },
    RULES,
  );
  const onSubmit = form.handleSubmit(async (values) => {
    if (values.state !== device.state) {
      const ok = await overlay.confirm({
        title: t('devices.edit.state-title'),
        message: t('devices.edit.state-message', {
          name: device.name,
          state: t(`devices.state.${values.state as (typeof DEVICE_STATES)[number]}`),
        }),
        testId: 'device-state-confirm',
      });
      if (!ok) return;
    }
    update.mutate(
      {
        id: device.id,
        name: values.name.trim(),
        description: values.description || null,
        comment: values.comment || null,
        location: values.location || null,
        latitude: numberOrNull(values.latitude),
        longitude: numberOrNull(values.longitude),
        group_id: values.group_id === NO_GROUP ? null : Number(values.group_id),
        codec_id: values.codec_id === NO_CODEC ? null : Number(values.codec_id),
        state: values.state,
      },
      {
        onSuccess: () => {
          notifySuccess(t('devices.saved'));
          onDone();
        },
      },
    );
  });
  const text = (name: keyof DeviceFormValues, label: string, required = false) => (
    <FormField name={name} label={label} required={required} summary={summary} testId={`device-${name}`}>
      <Input id={name} data-testid={`device-${name}`} {...form.register(name)} />
    </FormField>
  );
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex flex-1 flex-col overflow-hidden"
      data-testid="device-form"
    >
      <SheetBody className="flex flex-col gap-4 py-2">
        {text('name', t('devices.column.name'), true)}
        {text('description', t('devices.field.description'))}
        {text('comment', t('devices.field.comment'))}
        {text('location', t('devices.field.location'))}
        <div className="grid grid-cols-2 gap-3">
          {text('latitude', t('devices.field.latitude'))}
          {text('longitude', t('devices.field.longitude'))}
        </div>
        <FormField name="group_id" label={t('devices.column.group')} summary={summary} testId="device-group">
          <Controller
            control={form.control}
            name="group_id"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange}>
                <SelectTrigger id="group_id" data-testid="device-group">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={NO_GROUP}>{t('devices.edit.no-group')}</SelectItem>
                  {groups.map((g) => (
                    <SelectItem key={g.id} value={String(g.id)}>
                      {g.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </FormField>
        <FormField name="codec_id" label={t('devices.field.codec')} summary={summary} testId="device-codec">
          <Controller
            control={form.control}
            name="codec_id"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange}>
                <SelectTrigger id="codec_id" data-testid="device-codec">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={NO_CODEC}>{t('devices.edit.no-codec')}</SelectItem>
                  {(codecs.data ?? []).map((c) => (
                    <SelectItem key={c.id} value={String(c.id)} data-testid={`device-codec-${c.id}`}>
                      {c.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
          <Link to="/codecs" className="text-primary text-xs underline" data-testid="device-manage-codecs">
            {t('devices.edit.manage-codecs')}
          </Link>
        </FormField>
        <FormField
          name="state"
          label={t('devices.column.state')}
          required
          summary={summary}
          testId="device-state"
        >
          <Controller
            control={form.control}
            name="state"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange}>
                <SelectTrigger id="state" data-testid="device-state">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {DEVICE_STATES.map((s) => (
                    <SelectItem key={s} value={s} data-testid={`device-state-${s}`}>
                      {t(`devices.state.${s}`)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </FormField>
      </SheetBody>
      <SheetFooter className="items-center">
        <FormErrorMarker summary={summary} className="mr-auto" />
        <Button variant="outline" onClick={onDone} data-testid="device-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={!summary.canSubmit || update.isPending} data-testid="device-submit">
          <SaveIcon />
          {t('common.save')}
        </Button>
      </SheetFooter>
    </form>
  );
}

/** Edit device (ROLE_ADMIN and ROLE_MAINUSER): base data, position, group, state with confirmation, token. */
export function DeviceEditDrawer({ deviceId, onDone }: { deviceId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const canEdit = useCanEditDevices();
  const device = useDevice(deviceId);
  if (!canEdit) return <SheetBody>{t('devices.edit.not-allowed')}</SheetBody>;
  if (!device.data)
    return <SheetBody className="text-sm text-muted-foreground">{t('common.loading')}</SheetBody>;
  return <EditForm device={device.data} onDone={onDone} />;
}
