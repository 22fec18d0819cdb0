import type { DeviceSeries } from '../../../types/device';

/** One device's readings of one data field over the season, as uPlot's [x seconds, values]. */
export interface ReadingLine {
  deviceId: number;
  key: string;
  x: number[];
  y: number[];
}

/**
 * The season's lines of `keys` from the devices' data answers: one line per device and field that has at
 * least one number (a field reported by two soil sensors gives two lines), points in time order.
 */
export function seasonLines(answers: readonly DeviceSeries[], keys: readonly string[]): ReadingLine[] {
  return answers.flatMap((answer) =>
    keys.flatMap((key) => {
      const points = answer.points
        .filter((p) => typeof p.data[key] === 'number')
        .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
      if (points.length === 0) return [];
      return [
        {
          deviceId: answer.device_id,
          key,
          x: points.map((p) => Date.parse(p.created_at) / 1000),
          y: points.map((p) => p.data[key] as number),
        },
      ];
    }),
  );
}

/** Lines on one time axis (uPlot's AlignedData): the union of their times, null where a line has none. */
export function alignLines(lines: readonly ReadingLine[]): (number | null)[][] {
  const xs = [...new Set(lines.flatMap((l) => l.x))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  return [
    xs,
    ...lines.map((line) => {
      const ys: (number | null)[] = xs.map(() => null);
      line.x.forEach((x, i) => {
        ys[index.get(x)!] = line.y[i] ?? null;
      });
      return ys;
    }),
  ];
}
