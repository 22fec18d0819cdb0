import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PeriodPicker, usePeriod } from '../../../components/chart/period-picker';
import { UplotChart } from '../../../components/chart/uplot-chart';
import { SheetBody } from '../../../components/ui/sheet';
import { toChartData } from '../../../lib/chart-data';
import { formatNumber } from '../../../lib/format';
import type { Device } from '../../../types/device';
import { useMobileData } from '../api/get-mobile-data';

const MB = 1024 * 1024;

/** Mobile data: the SIM's volume in the current billing period and its history. */
export function DeviceMobileDrawer({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const period = usePeriod({ kind: 'last', span: '1m' });
  const mobile = useMobileData(device.id, period.bounds.from, period.bounds.to);
  const chart = useMemo(
    () => (mobile.data ? toChartData(mobile.data.history, ['mobile_data_volume']) : null),
    [mobile.data],
  );
  const volume = mobile.data?.mobile_data_volume ?? device.mobile_data_volume ?? null;
  const mb = (bytes: number) => `${formatNumber(bytes / MB, i18n.language, { maximumFractionDigits: 2 })} MB`;
  const values = chart?.fields[0]?.values.map((v) => (v === null ? null : v / MB)) ?? [];
  return (
    <SheetBody className="flex flex-col gap-3 pb-4" data-testid="device-mobile">
      <p className="text-sm" data-testid="mobile-volume">
        {t('devices.mobile.volume')}: <strong>{volume === null ? t('display.no-data') : mb(volume)}</strong>
      </p>
      <PeriodPicker state={period} testId="mobile" />
      {chart && chart.x.length > 0 ? (
        <UplotChart
          data={[chart.x, values]}
          series={[
            {
              label: t('devices.mobile.history'),
              format: (v) => `${formatNumber(v, i18n.language, { maximumFractionDigits: 2 })} MB`,
            },
          ]}
          height={240}
          lang={i18n.language}
          timeLabel={t('devices.data.time')}
          testId="mobile-chart"
        />
      ) : (
        <p className="text-sm text-muted-foreground">
          {mobile.isPending ? t('common.loading') : t('display.no-data')}
        </p>
      )}
    </SheetBody>
  );
}
