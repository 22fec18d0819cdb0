import { bilingualHalf, fieldLabel, isParkingAlarmKind, parkingAlarmLabel } from '@iot/domain';
import type { ActionContext } from './context';

/** Placeholders a subject, body, spoken message or webhook body may contain (README "Placeholders"). */
export const PLACEHOLDERS = ['device', 'field', 'value', 'unit', 'time', 'rule'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export function placeholderValues(ctx: ActionContext): Record<Placeholder, string> {
  if (isParkingAlarmKind(ctx.field) && typeof ctx.value === 'string') {
    // A parking alarm: its kind and its stored two-language text, in the delivery's language.
    return {
      device: ctx.device.name,
      field: parkingAlarmLabel(ctx.field!, ctx.language),
      value: bilingualHalf(ctx.value, ctx.language),
      unit: '',
      time: ctx.time,
      rule: ctx.rule?.name ?? '',
    };
  }
  return {
    device: ctx.device.name,
    // The field's label in the delivery's language ("Bodenfeuchte"), a virtual field's given name; the
    // unit is its own placeholder.
    field: ctx.field ? fieldLabel(ctx.field, ctx.language) : '',
    value: ctx.value === null ? '' : String(ctx.value),
    unit: ctx.unit,
    time: ctx.time,
    rule: ctx.rule?.name ?? '',
  };
}

const PATTERN = /\{(device|field|value|unit|time|rule)\}/g;

/**
 * Replaces `{device}`, `{field}`, `{value}`, `{unit}`, `{time}` and `{rule}`; anything else in braces stays
 * as written (a JSON body has braces of its own). `encode` encodes each value for its surroundings.
 */
export function fillPlaceholders(
  template: string,
  ctx: ActionContext,
  encode: (value: string) => string = (value) => value,
): string {
  const values = placeholderValues(ctx);
  return template.replace(PATTERN, (_match, name: Placeholder) => encode(values[name]));
}

/** For placeholders inside JSON strings: the value JSON-escaped, without the surrounding quotes. */
export function jsonStringEscape(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}
