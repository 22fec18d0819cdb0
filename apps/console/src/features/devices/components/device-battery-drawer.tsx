import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PeriodPicker, usePeriod } from '../../../components/chart/period-picker';
import { type ChartSeries, UplotChart } from '../../../components/chart/uplot-chart';
import { SheetBody } from '../../../components/ui/sheet';
import { toChartData } from '../../../lib/chart-data';
import { formatNumber } from '../../../lib/format';
import type { Device } from '../../../types/device';
import { useBattery } from '../api/get-battery';

/** Battery history: battery_level (%) and battery_voltage (V) on two scales. */
export function DeviceBatteryDrawer({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const period = usePeriod({ kind: 'last', span: '1m' });
  const battery = useBattery(device.id, period.bounds.from, period.bounds.to);
  const chart = useMemo(
    () => (battery.data ? toChartData(battery.data, ['battery_level', 'battery_voltage']) : null),
    [battery.data],
  );
  const series: ChartSeries[] = [
    {
      label: t('devices.battery.level'),
      scale: '%',
      format: (v) => `${formatNumber(v, i18n.language, { maximumFractionDigits: 1 })} %`,
    },
    {
      label: t('devices.battery.voltage'),
      scale: 'V',
      colorVar: '--destructive',
      format: (v) => `${formatNumber(v, i18n.language, { maximumFractionDigits: 2 })} V`,
    },
  ];
  const hasData = !!chart && chart.x.length > 0;
  return (
    <SheetBody className="flex flex-col gap-3 pb-4" data-testid="device-battery">
      <PeriodPicker state={period} testId="battery" />
      {hasData && chart ? (
        <div data-testid="battery-chart">
          <UplotChart
            data={[chart.x, chart.fields[0]?.values ?? [], chart.fields[1]?.values ?? []]}
            series={series}
            height={260}
            lang={i18n.language}
            timeLabel={t('devices.data.time')}
          />
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">
          {battery.isPending ? t('common.loading') : t('display.no-data')}
        </p>
      )}
    </SheetBody>
  );
}
