import { BATTERY_BUCKETS, batteryLabelKey, DEVICE_STATES } from '@iot/domain';
import { FilterXIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { cn } from '../../../lib/utils';
import {
  activeFilterCount,
  DEVICE_PRESETS,
  type DeviceFilterState,
  EMPTY_FILTER,
  type filterOptions,
  formatDeviceFilter,
} from '../device-filters';
import { useTypeLabel } from './device-cells';
import { FilterSelect } from './filter-select';

interface FilterProps {
  filter: DeviceFilterState;
  apply: (next: Partial<DeviceFilterState>) => void;
}

/** The presets as links, so each one is a URL of its own. */
function DevicePresetNav({ filter, params }: { filter: DeviceFilterState; params: URLSearchParams }) {
  const { t } = useTranslation();
  return (
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
  );
}

/** State, group and type: the filters that pick among the device's own attributes. */
function DeviceAttributeFilters({
  filter,
  apply,
  options,
}: FilterProps & { options: ReturnType<typeof filterOptions> }) {
  const { t } = useTranslation();
  const typeLabel = useTypeLabel();
  return (
    <>
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
    </>
  );
}

/** Online, battery and stale: the filters on the device's condition. */
function DeviceConditionFilters({ filter, apply }: FilterProps) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}

/** The filter bar above the device table: presets, filters, reset and the count of matching devices. */
export function DevicesToolbar({
  filter,
  params,
  apply,
  options,
  shown,
  total,
}: FilterProps & {
  params: URLSearchParams;
  options: ReturnType<typeof filterOptions>;
  shown: number;
  total: number;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="devices-filters">
      <DevicePresetNav filter={filter} params={params} />
      <DeviceAttributeFilters filter={filter} apply={apply} options={options} />
      <DeviceConditionFilters filter={filter} apply={apply} />
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
      <span className="ml-auto text-sm text-muted-foreground" data-testid="devices-count" data-count={shown}>
        {t('devices.count', { count: shown, total })}
      </span>
    </div>
  );
}
