import type { InterfaceLanguage } from '../constants/session';

/**
 * A parking alarm's notification (rules worker, apps/rules-worker/src/parking.ts) names the alarm's kind
 * as its `{field}` and carries the alarm's stored text, English and German joined by " / ", as its
 * `{value}`. These word both for the recipient.
 */
const LABELS: Record<string, Record<InterfaceLanguage, string>> = {
  parking_overstay: { de: 'Parkdauer überschritten', en: 'Overstay' },
  parking_free_slots: { de: 'Freie Plätze', en: 'Free slots' },
  parking_count_warning: { de: 'Unplausible Zählung', en: 'Implausible count' },
};

export function isParkingAlarmKind(field: string | null): boolean {
  return field !== null && Object.hasOwn(LABELS, field);
}

export function parkingAlarmLabel(kind: string, language: InterfaceLanguage): string {
  return LABELS[kind]?.[language] ?? kind;
}

/**
 * The half of an "English / Deutsch" text in `language`. Both halves name the same area, so the
 * separator is the middle one of the " / " it contains (an area called "A / B" adds one to each half).
 */
export function bilingualHalf(text: string, language: InterfaceLanguage): string {
  const parts = text.split(' / ');
  if (parts.length % 2 !== 0) return text;
  const half = parts.length / 2;
  return (language === 'en' ? parts.slice(0, half) : parts.slice(half)).join(' / ');
}
