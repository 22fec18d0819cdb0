import { STALE_DATA_HOURS } from '@iot/domain';
import {
  BatteryMediumIcon,
  CalendarClockIcon,
  ChartLineIcon,
  PencilIcon,
  ScrollTextIcon,
  SmartphoneIcon,
  TagsIcon,
} from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { type DeviceAction, useDeviceActions } from '../../../components/device-actions';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { SheetBody } from '../../../components/ui/sheet';
import { dataFieldLabel } from '../../../lib/field-label';
import { formatDateTime, formatNumber } from '../../../lib/format';
import type { Device } from '../../../types/device';
import { useCurrentValues } from '../api/get-current-values';
import { useDevice } from '../api/get-device';
import { metadataLabels } from '../device-columns';
import { deviceBattery } from '../device-filters';
import { useCanEditDevices } from './can-edit';
import {
  BatteryCell,
  FieldValue,
  fieldLabel,
  LastOnlineCell,
  SignalBars,
  StaleMarker,
  StateBadge,
  useTypeLabel,
} from './device-cells';
import { DeviceCredentials } from './device-credentials';
import { type DeviceDrawerKind, deviceHeader } from './device-drawers';

const ACTIONS: { kind: DeviceDrawerKind; icon: React.ElementType }[] = [
  { kind: 'data', icon: ChartLineIcon },
  { kind: 'logs', icon: ScrollTextIcon },
  { kind: 'timetable', icon: CalendarClockIcon },
  { kind: 'battery', icon: BatteryMediumIcon },
  { kind: 'mobile', icon: SmartphoneIcon },
  { kind: 'metadata', icon: TagsIcon },
  { kind: 'edit', icon: PencilIcon },
];

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div
      className="grid grid-cols-[9rem_1fr] gap-2 border-b py-1.5 text-sm last:border-0"
      data-testid={testId}
    >
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children ?? '–'}</dd>
    </div>
  );
}

/** The device drawer: its views as actions, every attribute, and the latest values with their times. */
export function DeviceInfoDrawer({
  device: row,
  onOpen,
}: {
  device: Device;
  onOpen: (kind: DeviceDrawerKind) => void;
}) {
  const { t, i18n } = useTranslation();
  const canEdit = useCanEditDevices();
  const extras = useDeviceActions();
  const overlay = useOverlay();
  // Views of other features (registered by the app) stack in the second drawer or open the dialog.
  const openExtra = (a: DeviceAction) =>
    a.as === 'dialog'
      ? overlay.openDialog({
          title: `${t(a.labelKey)}: ${row.name}`,
          testId: `device-${a.id}-dialog`,
          render: (close) => a.render(row, close),
        })
      : overlay.openDrawer(
          {
            header: deviceHeader(row),
            wide: a.wide ?? false,
            testId: `device-${a.id}-drawer`,
            render: (close) => a.render(row, close),
          },
          1,
        );
  const typeLabel = useTypeLabel();
  const details = useDevice(row.id);
  const current = useCurrentValues(row.id);
  const device = details.data ?? row;
  const now = Date.now();
  const labels = metadataLabels(device);
  const lang = i18n.language;
  const number = (v: number | null | undefined, digits = 6) =>
    v === null || v === undefined ? null : formatNumber(v, lang, { maximumFractionDigits: digits });
  const values = current.data?.data ?? {};
  const fields = Object.keys(values).sort((a, b) =>
    fieldLabel(a, labels).localeCompare(fieldLabel(b, labels)),
  );

  return (
    <SheetBody className="flex flex-col gap-4 pb-4" data-testid="device-info">
      <div className="flex flex-wrap gap-1.5" data-testid="device-actions">
        {ACTIONS.filter((a) => a.kind !== 'edit' || canEdit).map(({ kind, icon: Icon }) => (
          <Button
            key={kind}
            size="sm"
            variant="outline"
            onClick={() => onOpen(kind)}
            data-testid={`device-action-${kind}`}
          >
            <Icon />
            {t(`devices.drawer.${kind}`)}
          </Button>
        ))}
        {extras
          .filter((a) => !a.editorsOnly || canEdit)
          .map((a) => (
            <Button
              key={a.id}
              size="sm"
              variant="outline"
              onClick={() => openExtra(a)}
              data-testid={`device-action-${a.id}`}
            >
              <a.icon />
              {t(a.labelKey)}
            </Button>
          ))}
      </div>
      {canEdit && details.data && <DeviceCredentials device={details.data} />}
      <section>
        <h3 className="mb-1 text-sm font-semibold">{t('devices.info.attributes')}</h3>
        <dl>
          <Row label={t('devices.column.state')}>
            <StateBadge state={device.state} />
          </Row>
          <Row label={t('devices.column.type')}>{typeLabel(device.device_type)}</Row>
          <Row label={t('devices.column.group')}>{device.group?.name}</Row>
          <Row label={t('devices.field.description')}>{device.description}</Row>
          <Row label={t('devices.field.comment')}>{device.comment}</Row>
          <Row label={t('devices.field.location')}>{device.location}</Row>
          <Row label={t('devices.field.coordinates')}>
            {device.latitude !== null && device.latitude !== undefined
              ? `${number(device.latitude)}, ${number(device.longitude)}`
              : null}
          </Row>
          <Row label={t('devices.field.serial-number')}>{device.serial_number}</Row>
          <Row label="DevEUI">{device.dev_eui}</Row>
          <Row label="UUID">{device.uuid}</Row>
          <Row label={t('devices.field.driver')}>{device.driver_id}</Row>
          <Row label={t('devices.field.target-server')}>{device.target_server}</Row>
          <Row label={t('devices.field.external-accessible')}>
            {device.external_accessible ? t('devices.yes') : t('devices.no')}
          </Row>
          <Row label={t('devices.column.battery')}>
            <span className="flex items-center gap-2">
              <BatteryCell
                bucket={deviceBattery(device)}
                level={device.battery_level}
                voltage={device.battery_voltage}
              />
              {number(device.battery_level, 0) !== null && `${number(device.battery_level, 0)} %`}
              {number(device.battery_voltage, 2) !== null && ` · ${number(device.battery_voltage, 2)} V`}
            </span>
          </Row>
          <Row label={t('devices.column.last-online')}>
            <LastOnlineCell value={device.last_online_at} now={now} />
          </Row>
          <Row label={t('devices.column.signal')}>
            <span className="flex items-center gap-2">
              <SignalBars value={device.signal_strength} rssi={device.rssi ?? null} />
              {device.rssi !== null && device.rssi !== undefined && `RSSI ${device.rssi} dBm`}
              {device.snr !== null && device.snr !== undefined && ` · SNR ${number(device.snr, 1)} dB`}
            </span>
          </Row>
          <Row label={t('devices.field.mobile-data')}>
            {device.mobile_data_volume === null || device.mobile_data_volume === undefined
              ? null
              : `${number(device.mobile_data_volume / 1024, 1)} KiB`}
          </Row>
          {!canEdit && details.data?.credentials && (
            <Row label={t('devices.field.credentials')} testId="device-credentials-state">
              {details.data.credentials.is_set
                ? t('devices.credentials.set')
                : t('devices.credentials.not-set')}
            </Row>
          )}
        </dl>
      </section>
      <section>
        <h3 className="mb-1 text-sm font-semibold">{t('devices.info.latest-values')}</h3>
        {fields.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {current.isPending ? t('common.loading') : t('display.no-data')}
          </p>
        ) : (
          <dl data-testid="device-latest-values">
            {fields.map((field) => {
              const time = current.data?.field_times[field];
              return (
                <Row key={field} label={fieldLabel(field, labels)} testId={`latest-${field}`}>
                  <span className="flex flex-wrap items-center gap-2">
                    <FieldValue field={field} value={values[field]} />
                    {current.data?.stale[field] && <StaleMarker />}
                    <span
                      className="text-xs text-muted-foreground"
                      title={t('display.stale', { hours: STALE_DATA_HOURS })}
                    >
                      {formatDateTime(time, lang)}
                    </span>
                  </span>
                </Row>
              );
            })}
          </dl>
        )}
      </section>
      {details.data?.virtual && (
        <section data-testid="device-virtual-inputs">
          <h3 className="mb-1 text-sm font-semibold">{t('devices.virtual.inputs')}</h3>
          <dl>
            {details.data.virtual.fields.map((f) => (
              <Row
                key={f.key}
                label={dataFieldLabel(f.key, labels.get(f.key))}
                testId={`virtual-formula-${f.key}`}
              >
                <code className="text-xs">{f.formula}</code>
              </Row>
            ))}
            <Row label={t('devices.virtual.input-devices')}>
              {details.data.virtual.inputs.map((i) => `${i.name} (d${i.id})`).join(', ')}
            </Row>
          </dl>
        </section>
      )}
    </SheetBody>
  );
}
