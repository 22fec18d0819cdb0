import { useTranslation } from 'react-i18next';
import { useOpenDevice } from '../../../components/device-opener';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { describeField } from '../../../lib/field-display';
import type { Device } from '../../../types/device';
import type { TranslationKey } from '../../../types/translation-key';
import type { TableSettings } from '../types';
import { fieldLabel } from '../widget-fields';

/** Devices with the chosen fields' latest values, formatted by the domain (units, classes, decimals). */
export function TableWidget({
  settings,
  devices,
  loading = false,
}: {
  settings: TableSettings;
  devices: readonly Device[];
  /** the devices are still on their way: no "no devices" note yet */
  loading?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const openDevice = useOpenDevice();
  const chosen = new Set(settings.device_ids);
  const rows = devices.filter((d) => chosen.has(d.id));
  const cell = (device: Device, field: string) => {
    const value = device.data?.[field];
    if (value === undefined || value === null) return '–';
    const shown = describeField(field, value, i18n.language);
    const text =
      shown.value.kind === 'key'
        ? t(shown.value.key as TranslationKey)
        : `${shown.value.text}${shown.value.unit ? ` ${shown.value.unit}` : ''}`;
    return shown.classKey ? `${text} (${t(shown.classKey as TranslationKey)})` : text;
  };
  if (rows.length === 0 && loading)
    return (
      <p className="p-2 text-sm text-muted-foreground" data-loading="true">
        {t('common.loading')}
      </p>
    );
  if (rows.length === 0)
    return <p className="p-2 text-sm text-muted-foreground">{t('dashboards.no-devices')}</p>;
  return (
    <Table data-testid="table-widget">
      <TableHeader>
        <TableRow>
          <TableHead>{t('dashboards.device')}</TableHead>
          {settings.data_fields.map((field) => (
            <TableHead key={field}>{fieldLabel(field)}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((device) => (
          <TableRow key={device.id} data-testid={`table-widget-row-${device.id}`}>
            <TableCell>
              <button
                type="button"
                className="text-left font-medium hover:underline"
                onClick={() => openDevice(device)}
              >
                {device.name}
              </button>
            </TableCell>
            {settings.data_fields.map((field) => (
              <TableCell key={field} data-field={field}>
                {cell(device, field)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
