import { SIGNAL_STRENGTH_MAX, SIGNAL_STRENGTH_MIN } from '../constants/session';

/** Signal strength on the 1 to 5 scale (spec section 9), rounded and clamped; null for no reading. */
export function signalLevel(value: number | null | undefined): 1 | 2 | 3 | 4 | 5 | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return Math.min(SIGNAL_STRENGTH_MAX, Math.max(SIGNAL_STRENGTH_MIN, Math.round(value))) as 1 | 2 | 3 | 4 | 5;
}
