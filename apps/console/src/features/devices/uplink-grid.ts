import type { DataPoint } from '../../types/device';

/**
 * Timetable of a device: how many uplinks arrived in each hour of each of the last `days` days (local
 * time), newest day first. A downsampled point stands for `count` uplinks at its bucket start.
 */
export interface UplinkDay {
  /** local midnight of the day, epoch ms */
  day: number;
  hours: number[];
  total: number;
}

export function uplinkGrid(points: readonly DataPoint[], now: number, days = 7): UplinkDay[] {
  const today = new Date(now);
  today.setHours(0, 0, 0, 0);
  const result: UplinkDay[] = [];
  for (let i = 0; i < days; i++) {
    const d = new Date(today);
    d.setDate(d.getDate() - i);
    result.push({ day: d.getTime(), hours: Array.from({ length: 24 }, () => 0), total: 0 });
  }
  for (const p of points) {
    const t = new Date(p.created_at);
    if (Number.isNaN(t.getTime())) continue;
    const midnight = new Date(t);
    midnight.setHours(0, 0, 0, 0);
    const row = result.find((r) => r.day === midnight.getTime());
    if (!row) continue;
    const n = p.count ?? 1;
    row.hours[t.getHours()] = (row.hours[t.getHours()] ?? 0) + n;
    row.total += n;
  }
  return result;
}

/** Shade step 0..4 of a cell relative to the busiest hour, so the grid reads at a glance. */
export function heatLevel(count: number, max: number): 0 | 1 | 2 | 3 | 4 {
  if (count <= 0 || max <= 0) return 0;
  return Math.min(4, Math.max(1, Math.ceil((count / max) * 4))) as 1 | 2 | 3 | 4;
}
