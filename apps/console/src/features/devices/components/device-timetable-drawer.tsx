import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SheetBody } from '../../../components/ui/sheet';
import { useDeviceData } from '../../../lib/devices/get-device-data';
import { localeTag } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import type { Device } from '../../../types/device';
import { heatLevel, uplinkGrid } from '../uplink-grid';

const DAYS = 7;
const SHADES = ['bg-muted', 'bg-primary/25', 'bg-primary/50', 'bg-primary/75', 'bg-primary'];

/** Timetable: uplinks per hour of the last 7 days as a heat strip per day, from the data endpoint. */
export function DeviceTimetableDrawer({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const [now] = useState(() => Date.now());
  const from = useMemo(() => {
    const d = new Date(now);
    d.setHours(0, 0, 0, 0);
    d.setDate(d.getDate() - (DAYS - 1));
    return d.getTime();
  }, [now]);
  // No fields requested: every uplink counts, whatever it carried.
  const data = useDeviceData({ id: device.id, fields: [], from, to: now });
  const grid = useMemo(() => uplinkGrid(data.data?.points ?? [], now, DAYS), [data.data, now]);
  const max = Math.max(0, ...grid.flatMap((d) => d.hours));
  const dayFormat = new Intl.DateTimeFormat(localeTag(i18n.language), {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
  });
  return (
    <SheetBody className="flex flex-col gap-3 pb-4" data-testid="device-timetable">
      <p className="text-sm text-muted-foreground">{t('devices.timetable.intro', { days: DAYS })}</p>
      {data.isPending ? (
        <p className="text-sm text-muted-foreground">{t('common.loading')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="border-separate border-spacing-0.5 text-xs" data-testid="timetable-grid">
            <thead>
              <tr>
                <th />
                {Array.from({ length: 24 }, (_, h) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the hour is the identity
                  <th key={h} className="w-6 font-normal text-muted-foreground">
                    {h % 3 === 0 ? String(h).padStart(2, '0') : ''}
                  </th>
                ))}
                <th className="pl-2 text-right font-normal text-muted-foreground">
                  {t('devices.timetable.total')}
                </th>
              </tr>
            </thead>
            <tbody>
              {grid.map((day) => (
                <tr key={day.day} data-testid="timetable-day" data-total={day.total}>
                  <th className="pr-2 text-left font-normal whitespace-nowrap">
                    {dayFormat.format(day.day)}
                  </th>
                  {day.hours.map((count, h) => (
                    <td
                      // biome-ignore lint/suspicious/noArrayIndexKey: the hour is the identity
                      key={h}
                      className={cn('size-6 rounded-sm', SHADES[heatLevel(count, max)])}
                      title={t('devices.timetable.cell', { hour: String(h).padStart(2, '0'), count })}
                      data-count={count}
                    />
                  ))}
                  <td className="pl-2 text-right tabular-nums">{day.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SheetBody>
  );
}
