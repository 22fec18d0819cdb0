/** Epoch ms from a number or ISO text; NaN when neither. */
export function toEpochMs(value: number | string | null | undefined): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Date.parse(value);
  return Number.NaN;
}
