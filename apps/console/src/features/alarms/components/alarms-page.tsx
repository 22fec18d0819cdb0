import { formatFieldValue } from '@iot/domain';
import { type ColumnDef, getCoreRowModel, getSortedRowModel, useReactTable } from '@tanstack/react-table';
import { CheckIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../../components/data-table/data-table';
import { useOpenDevice } from '../../../components/device-opener';
import { PageHeader } from '../../../components/shell/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ToggleGroup, ToggleGroupItem } from '../../../components/ui/toggle-group';
import { useDevices } from '../../../lib/devices/get-devices';
import { formatDateTime, localeTag } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useUrlTableState } from '../../../lib/use-url-table-state';
import { useAcknowledgeAlarm } from '../api/acknowledge-alarm';
import { useAlarms } from '../api/get-alarms';
import { type Alarm, parseAlarmFilter } from '../types';
import { AlarmStateBadge } from './alarm-state-badge';

/**
 * The alarm page (spec section 2, /alarms): the company's alarms, open or all in the URL (`?show=all`),
 * polled on a timer; any user acknowledges; a row opens the device drawer.
 */
export function AlarmsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [params, setParams] = useSearchParams();
  const filter = parseAlarmFilter(params.get('show'));
  const alarms = useAlarms(filter);
  const devices = useDevices();
  const acknowledge = useAcknowledgeAlarm();
  const openDevice = useOpenDevice();
  const { sorting, setSorting } = useUrlTableState([{ id: 'raised_at', desc: true }]);

  const setFilter = (value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === 'all') next.set('show', 'all');
        else next.delete('show');
        return next;
      },
      { replace: true },
    );

  const open = (alarm: Alarm) => {
    const device = devices.data?.find((d) => d.id === alarm.device_id);
    openDevice(device ?? { id: alarm.device_id, name: alarm.device_name, state: 'ok', is_active: true });
  };

  const source = (a: Alarm) =>
    a.rule_name ??
    parkingSource(a) ??
    (a.sensor_check_kind ? t(`alarms.check.${a.sensor_check_kind}`, a.sensor_check_kind) : '–');

  /** The parking module's alarms (rules worker, details.kind): overstay, few free slots, implausible count. */
  const parkingSource = (a: Alarm) => {
    const area = String(a.details.area_name ?? '');
    if (a.details.kind === 'parking_overstay')
      return t('parking.alarm.overstay', { area, bay: String(a.details.label ?? '') });
    if (a.details.kind === 'parking_free_slots')
      return t(a.details.full ? 'parking.alarm.full' : 'parking.alarm.few-free', { area });
    if (a.details.kind === 'parking_count_warning') return t('parking.alarm.count-warning', { area });
    return null;
  };

  const valueText = (field: string, value: number) => {
    const formatted = formatFieldValue(field, value, { locale: localeTag(lang) });
    if (formatted.kind === 'key') return t(formatted.key as 'display.no-data');
    return formatted.unit ? `${formatted.text} ${formatted.unit}` : formatted.text;
  };

  const time = (value: string | null) => formatDateTime(value, lang) || '–';

  const columns: ColumnDef<Alarm>[] = [
    { accessorKey: 'device_name', header: t('alarms.device') },
    { id: 'source', header: t('alarms.source'), accessorFn: source },
    {
      accessorKey: 'data_field',
      header: t('alarms.field'),
      cell: ({ row }) => row.original.data_field ?? '–',
    },
    {
      accessorKey: 'value',
      header: t('alarms.value'),
      cell: ({ row }) =>
        row.original.value === null ? '–' : valueText(row.original.data_field ?? '', row.original.value),
    },
    {
      accessorKey: 'state',
      header: t('alarms.state'),
      cell: ({ row }) => <AlarmStateBadge state={row.original.state} />,
    },
    {
      accessorKey: 'raised_at',
      header: t('alarms.raised-at'),
      cell: ({ row }) => time(row.original.raised_at),
    },
    {
      accessorKey: 'acknowledged_at',
      header: t('alarms.acknowledged-at'),
      cell: ({ row }) => (
        <span>
          {time(row.original.acknowledged_at)}
          {row.original.acknowledged_by && (
            <span className="block text-xs text-muted-foreground">{row.original.acknowledged_by.name}</span>
          )}
        </span>
      ),
    },
    {
      accessorKey: 'cleared_at',
      header: t('alarms.cleared-at'),
      cell: ({ row }) => time(row.original.cleared_at),
    },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      cell: ({ row }) =>
        row.original.acknowledged_at === null ? (
          <Button
            size="sm"
            variant="outline"
            disabled={acknowledge.isPending}
            onClick={(event) => {
              // The row itself opens the device; the button only acknowledges.
              event.stopPropagation();
              acknowledge.mutate(row.original.id, {
                onSuccess: () => notifySuccess(t('alarms.acknowledged')),
              });
            }}
            data-testid={`alarm-ack-${row.original.id}`}
          >
            <CheckIcon />
            {t('alarms.acknowledge')}
          </Button>
        ) : null,
    },
  ];

  const table = useReactTable({
    data: alarms.data ?? [],
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  return (
    <div className="flex flex-col gap-4" data-testid="alarms-page">
      <PageHeader
        title={t('page.alarms')}
        actions={
          <ToggleGroup
            type="single"
            value={filter}
            onValueChange={(v) => v && setFilter(v)}
            data-testid="alarms-filter"
          >
            <ToggleGroupItem value="open" data-testid="alarms-filter-open">
              {t('alarms.filter.open')}
            </ToggleGroupItem>
            <ToggleGroupItem value="all" data-testid="alarms-filter-all">
              {t('alarms.filter.all')}
            </ToggleGroupItem>
          </ToggleGroup>
        }
      />
      <Card className="p-2">
        <DataTable
          table={table}
          testId="alarms-table"
          rowTestId={(row) => `alarm-row-${row.original.id}`}
          rowAttributes={(row) => ({ 'data-state': row.original.state })}
          onRowClick={(row) => open(row.original)}
          empty={alarms.isPending ? t('common.loading') : t('alarms.empty')}
        />
      </Card>
    </div>
  );
}
