import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import type { ParkingArea } from '../types';

/** "9 free of 345", never a bare "9/345" that reads either way (issue #25). */
export function FreeOfCapacity({ area }: { area: ParkingArea }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  return (
    <span data-testid={`parking-free-${area.id}`} data-free={area.free_slots ?? ''}>
      {area.free_slots === null
        ? t('parking.free-unknown', { capacity: n(area.capacity) })
        : t('parking.free-of-capacity', { free: n(area.free_slots), capacity: n(area.capacity) })}
    </span>
  );
}

/** Occupied, free and unknown shares of the capacity as one bar. */
export function OccupancyBar({ area }: { area: ParkingArea }) {
  const { t } = useTranslation();
  const total = Math.max(area.capacity, 1);
  const pct = (n: number) => `${Math.min(100, (n / total) * 100)}%`;
  const free = area.free_slots ?? 0;
  return (
    <div className="flex min-w-32 flex-col gap-1">
      <div className="flex h-2 w-full overflow-hidden rounded bg-muted" aria-hidden>
        <div className="bg-destructive" style={{ width: pct(area.occupied_slots) }} />
        <div className="bg-emerald-600" style={{ width: pct(free) }} />
      </div>
      {area.unknown_slots > 0 && (
        <span className="text-xs text-muted-foreground">
          {t('parking.unknown-slots', { count: area.unknown_slots })}
        </span>
      )}
      {area.count_warning && (
        <span className="text-xs text-amber-600" data-testid={`parking-warning-${area.id}`}>
          {t(`parking.warning.${area.count_warning}`, { count: area.reported_count ?? 0 })}
        </span>
      )}
    </div>
  );
}

/** Map colour of an area: green with many free slots, red when full, grey when unknown. */
export function areaColor(area: ParkingArea): [number, number, number] {
  if (area.free_slots === null || area.capacity === 0) return [156, 163, 175];
  const share = area.free_slots / area.capacity;
  if (area.free_slots === 0) return [220, 38, 38];
  return share < 0.1 ? [217, 119, 6] : [22, 163, 74];
}
