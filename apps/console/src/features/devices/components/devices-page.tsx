import { BATTERY_BUCKETS, batteryLabelKey, DEVICE_STATES } from '@iot/domain';
import {
  type ColumnDef,
  getCoreRowModel,
  getSortedRowModel,
  type SortingFn,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon, FilterXIcon } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/shell/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { renderTableContent } from '../../../components/ui/table';
import { useDevices } from '../../../lib/devices/get-devices';
import { notifyInfo } from '../../../lib/notify';
import { useUrlTableState } from '../../../lib/use-url-table-state';
import { cn } from '../../../lib/utils';
import type { Device } from '../../../types/device';
import { keyFields, metadataLabels } from '../device-columns';
import {
  activeFilterCount,
  DEVICE_PRESETS,
  type DeviceFilterState,
  deviceBattery,
  deviceIsStale,
  EMPTY_FILTER,
  filterDevices,
  filterOptions,
  formatDeviceFilter,
  newestValueTime,
  parseDeviceFilter,
} from '../device-filters';
import {
  BatteryCell,
  FieldValue,
  fieldLabel,
  LastOnlineCell,
  OfflineMarker,
  SignalBars,
  StaleMarker,
  StateBadge,
  useTypeLabel,
} from './device-cells';
import { useDeviceDrawers } from './device-drawers';
import { FilterSelect } from './filter-select';

/** Fixed row height: the virtualizer positions rows without measuring them, so 10k rows scroll smoothly. */
const ROW_HEIGHT = 52;
const GRID =
  'minmax(14rem,2fr) minmax(8rem,1fr) minmax(8rem,1fr) 4rem minmax(9rem,1fr) 3rem 4.5rem 7rem minmax(14rem,2fr)';
const NO_DEVICES: Device[] = [];

const BATTERY_ORDER = Object.fromEntries(BATTERY_BUCKETS.map((b, i) => [b, i]));
const byBattery: SortingFn<Device> = (a, b) =>
  (a.original.battery_level ?? -1) - (b.original.battery_level ?? -1) ||
  (BATTERY_ORDER[deviceBattery(b.original)] ?? 0) - (BATTERY_ORDER[deviceBattery(a.original)] ?? 0);
const byTime =
  (pick: (d: Device) => string | null | undefined): SortingFn<Device> =>
  (a, b) =>
    Date.parse(pick(a.original) ?? '') - Date.parse(pick(b.original) ?? '') || 0;

/** The /devices/:filter? screen: virtualized device table with search, filters and sorting in the URL. */
export function DevicesPage() {
  const { t } = useTranslation();
  const typeLabel = useTypeLabel();
  const { filter: presetSegment } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const devices = useDevices();
  const drawers = useDeviceDrawers();
  const { sorting, setSorting } = useUrlTableState([{ id: 'name', desc: false }]);
  const filter = useMemo(() => parseDeviceFilter(presetSegment, params), [presetSegment, params]);
  // The list is judged against one "now" per load, so stale and last-online do not flicker while scrolling.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (devices.dataUpdatedAt) setNow(Date.now());
  }, [devices.dataUpdatedAt]);

  // Search is typed locally and written to the URL a moment later, so typing stays fluid with 10k rows.
  const [search, setSearch] = useState(filter.search);
  useEffect(() => setSearch(filter.search), [filter.search]);
  const apply = (next: Partial<DeviceFilterState>) => {
    const { path, search: query } = formatDeviceFilter({ ...filter, ...next }, params);
    void navigate(`${path}${query}`, { replace: true });
  };
  useEffect(() => {
    if (search === filter.search) return;
    const timer = setTimeout(() => {
      const { path, search: query } = formatDeviceFilter({ ...filter, search }, params);
      void navigate(`${path}${query}`, { replace: true });
    }, 250);
    return () => clearTimeout(timer);
  }, [search, filter, params, navigate]);

  // `?device=<id>` (a message's link) opens that device's drawer once the list is here, then leaves the
  // URL, so that closing the drawer does not open it again. By id: a renamed device is still found.
  const linkedId = params.get('device');
  const handledLink = useRef<string | null>(null);
  useEffect(() => {
    if (linkedId === null) handledLink.current = null;
    if (linkedId === null || !devices.data || handledLink.current === linkedId) return;
    handledLink.current = linkedId;
    const rest = new URLSearchParams(params);
    rest.delete('device');
    const { path, search: query } = formatDeviceFilter(filter, rest);
    void navigate(`${path}${query}`, { replace: true });
    const device = devices.data.find((d) => String(d.id) === linkedId);
    if (device) drawers.openDevice(device);
    else notifyInfo(t('devices.linked-not-found'));
  }, [linkedId, devices.data, params, filter, navigate, drawers, t]);

  const all = devices.data ?? NO_DEVICES;
  const options = useMemo(() => filterOptions(all), [all]);
  const rows = useMemo(() => filterDevices(all, filter, now), [all, filter, now]);

  const columns = useMemo<ColumnDef<Device>[]>(
    () => [
      {
        id: 'name',
        accessorFn: (d) => d.name.toLowerCase(),
        header: t('devices.column.name'),
        cell: ({ row }) => (
          <span className="flex min-w-0 items-center gap-2">
            {!row.original.is_active && <OfflineMarker />}
            <span className="truncate font-medium">{row.original.name}</span>
          </span>
        ),
      },
      {
        id: 'type',
        accessorFn: (d) => d.device_type ?? '',
        header: t('devices.column.type'),
        cell: ({ row }) => <span className="block truncate">{typeLabel(row.original.device_type)}</span>,
      },
      {
        id: 'group',
        accessorFn: (d) => d.group?.name.toLowerCase() ?? '',
        header: t('devices.column.group'),
        cell: ({ row }) => <span className="block truncate">{row.original.group?.name ?? '–'}</span>,
      },
      {
        id: 'battery',
        accessorFn: (d) => d.battery_level ?? -1,
        sortingFn: byBattery,
        header: t('devices.column.battery'),
        cell: ({ row }) => (
          <BatteryCell
            bucket={deviceBattery(row.original)}
            level={row.original.battery_level}
            voltage={row.original.battery_voltage}
          />
        ),
      },
      {
        id: 'last_online',
        accessorFn: (d) => d.last_online_at ?? '',
        sortingFn: byTime((d) => d.last_online_at),
        header: t('devices.column.last-online'),
        cell: ({ row }) => <LastOnlineCell value={row.original.last_online_at} now={now} />,
      },
      {
        id: 'stale',
        accessorFn: (d) => (deviceIsStale(d, now) ? 1 : 0),
        header: '',
        cell: ({ row }) => (deviceIsStale(row.original, now) ? <StaleMarker /> : null),
      },
      {
        id: 'signal',
        accessorFn: (d) => d.signal_strength ?? 0,
        header: t('devices.column.signal'),
        cell: ({ row }) => (
          <SignalBars value={row.original.signal_strength} rssi={row.original.rssi ?? null} />
        ),
      },
      {
        id: 'state',
        accessorFn: (d) => d.state,
        header: t('devices.column.state'),
        cell: ({ row }) => <StateBadge state={row.original.state} />,
      },
      {
        id: 'values',
        accessorFn: (d) => newestValueTime(d) ?? '',
        sortingFn: byTime(newestValueTime),
        header: t('devices.column.values'),
        cell: ({ row }) => {
          const labels = metadataLabels(row.original);
          const fields = keyFields(row.original);
          return (
            <span className="flex min-w-0 gap-3 overflow-hidden text-xs">
              {fields.map((f) => (
                <span key={f} className="flex flex-col leading-tight">
                  <span className="text-muted-foreground">{fieldLabel(f, labels)}</span>
                  <FieldValue field={f} value={row.original.data?.[f]} />
                </span>
              ))}
            </span>
          );
        },
      },
    ],
    [t, typeLabel, now],
  );

  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const tableRows = table.getRowModel().rows;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });

  return (
    <div className="flex flex-col gap-4" data-testid="devices-page">
      <PageHeader
        title={t('page.devices')}
        actions={
          <Input
            placeholder={t('common.search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="w-64"
            data-testid="devices-search"
          />
        }
      />
      <div className="flex flex-wrap items-center gap-2" data-testid="devices-filters">
        <nav className="flex flex-wrap gap-1" aria-label={t('devices.presets')}>
          {[null, ...DEVICE_PRESETS].map((preset) => {
            const target = formatDeviceFilter({ ...filter, preset }, params);
            return (
              <Link
                key={preset ?? 'all'}
                to={`${target.path}${target.search}`}
                replace
                className={cn(
                  'rounded-md border px-3 py-1 text-sm',
                  filter.preset === preset
                    ? 'border-primary bg-primary text-primary-foreground'
                    : 'hover:bg-accent',
                )}
                data-testid={`devices-preset-${preset ?? 'all'}`}
              >
                {t(`devices.preset.${preset ?? 'all'}`)}
              </Link>
            );
          })}
        </nav>
        <FilterSelect
          value={filter.state}
          onChange={(v) => apply({ state: v as DeviceFilterState['state'] })}
          allLabel={t('devices.filter.all-states')}
          options={DEVICE_STATES.map((s) => ({
            value: s,
            label: t(`devices.state.${s}`),
            testId: `devices-filter-state-${s}`,
          }))}
          testId="devices-filter-state"
          ariaLabel={t('devices.column.state')}
        />
        <FilterSelect
          value={filter.groupId}
          onChange={(v) => apply({ groupId: v === null ? null : Number(v) })}
          allLabel={t('devices.filter.all-groups')}
          options={options.groups.map((g) => ({ value: String(g.id), label: g.name }))}
          testId="devices-filter-group"
          ariaLabel={t('devices.column.group')}
        />
        <FilterSelect
          value={filter.type}
          onChange={(v) => apply({ type: v })}
          allLabel={t('devices.filter.all-types')}
          options={options.types.map((type) => ({ value: type, label: typeLabel(type) }))}
          testId="devices-filter-type"
          ariaLabel={t('devices.column.type')}
          className="w-44"
        />
        <FilterSelect
          value={filter.online}
          onChange={(v) => apply({ online: v as DeviceFilterState['online'] })}
          allLabel={t('devices.filter.online-any')}
          options={(['online', 'offline'] as const).map((o) => ({
            value: o,
            label: t(`devices.preset.${o}`),
            testId: `devices-filter-online-${o}`,
          }))}
          testId="devices-filter-online"
          ariaLabel={t('devices.filter.online')}
          className="w-36"
        />
        <FilterSelect
          value={filter.battery}
          onChange={(v) => apply({ battery: v as DeviceFilterState['battery'] })}
          allLabel={t('devices.filter.all-batteries')}
          options={BATTERY_BUCKETS.map((b) => ({ value: b, label: t(batteryLabelKey(b)) }))}
          testId="devices-filter-battery"
          ariaLabel={t('devices.column.battery')}
        />
        <label className="flex items-center gap-2 text-sm" htmlFor="devices-filter-stale">
          <Checkbox
            id="devices-filter-stale"
            checked={filter.stale}
            onCheckedChange={(v) => apply({ stale: v === true })}
            data-testid="devices-filter-stale"
          />
          {t('devices.filter.stale')}
        </label>
        {(activeFilterCount(filter) > 0 || filter.preset || filter.search) && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => apply(EMPTY_FILTER)}
            data-testid="devices-filter-reset"
          >
            <FilterXIcon />
            {t('devices.filter.reset')}
          </Button>
        )}
        <span
          className="ml-auto text-sm text-muted-foreground"
          data-testid="devices-count"
          data-count={rows.length}
        >
          {t('devices.count', { count: rows.length, total: all.length })}
        </span>
      </div>
      <Card className="overflow-hidden p-0">
        <div
          ref={scrollRef}
          className="h-[calc(100vh-16rem)] min-h-80 overflow-auto"
          data-testid="devices-scroll"
        >
          <table className="grid min-w-[72rem]" aria-rowcount={tableRows.length} data-testid="devices-table">
            <thead className="sticky top-0 z-10 grid border-b bg-muted text-xs font-medium text-muted-foreground">
              <tr className="grid" style={{ gridTemplateColumns: GRID }}>
                {table.getHeaderGroups()[0]?.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const SortIcon =
                    sorted === 'asc' ? ArrowUpIcon : sorted === 'desc' ? ArrowDownIcon : ArrowUpDownIcon;
                  return (
                    <th key={header.id} className="px-3 py-2 text-left font-medium">
                      {header.id === 'stale' ? null : (
                        <button
                          type="button"
                          className="inline-flex items-center gap-1"
                          onClick={header.column.getToggleSortingHandler()}
                          data-testid={`devices-sort-${header.id}`}
                        >
                          {renderTableContent(header.column.columnDef.header, header.getContext())}
                          <SortIcon className="size-3" />
                        </button>
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody
              className="relative grid"
              style={{ height: virtualizer.getTotalSize() }}
              data-testid="devices-rows"
            >
              {virtualizer.getVirtualItems().map((item) => {
                const row = tableRows[item.index];
                if (!row) return null;
                return (
                  <tr
                    key={row.id}
                    aria-rowindex={item.index + 1}
                    className="absolute inset-x-0 grid cursor-pointer items-center border-b text-sm hover:bg-accent/50"
                    style={{
                      gridTemplateColumns: GRID,
                      height: ROW_HEIGHT,
                      transform: `translateY(${item.start}px)`,
                    }}
                    onClick={() => drawers.openDevice(row.original)}
                    data-testid={`device-row-${row.original.id}`}
                    data-active={row.original.is_active}
                  >
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id} className="min-w-0 px-3">
                        {cell.column.id === 'name' ? (
                          // The name is the row's keyboard target: Enter on it opens the drawer like a click.
                          <button
                            type="button"
                            className="w-full min-w-0 text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                          >
                            {renderTableContent(cell.column.columnDef.cell, cell.getContext())}
                          </button>
                        ) : (
                          renderTableContent(cell.column.columnDef.cell, cell.getContext())
                        )}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
          {tableRows.length === 0 && (
            <p className="py-10 text-center text-muted-foreground" data-testid="devices-empty">
              {devices.isPending ? t('common.loading') : t('common.no-data')}
            </p>
          )}
        </div>
      </Card>
    </div>
  );
}
