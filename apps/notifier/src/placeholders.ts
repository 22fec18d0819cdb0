import {
  bilingualHalf,
  fieldLabel,
  type InterfaceLanguage,
  isParkingAlarmKind,
  parkingAlarmLabel,
} from '@iot/domain';
import type { ActionContext } from './context';

/** Placeholders a subject, body, spoken message or webhook body may contain (README "Placeholders"). */
export const PLACEHOLDERS = ['device', 'field', 'value', 'unit', 'time', 'rule'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** `raw`: numbers as JavaScript writes them (a webhook's JSON), else in the delivery's language. */
export function placeholderValues(ctx: ActionContext, raw = false): Record<Placeholder, string> {
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
    value: valueText(ctx, raw),
    unit: ctx.unit,
    time: ctx.time,
    rule: ctx.rule?.name ?? '',
  };
}

const VALUE_FORMAT: Record<InterfaceLanguage, Intl.NumberFormat> = {
  de: new Intl.NumberFormat('de-DE', { maximumFractionDigits: 6, useGrouping: false }),
  en: new Intl.NumberFormat('en-GB', { maximumFractionDigits: 6, useGrouping: false }),
};

/**
 * A number as the delivery's reader writes it ("31,5" in German), or as JavaScript does when `raw`.
 * Without grouping: a meter's 12345,6 is read more safely than 12.345,6 in a text message.
 */
function valueText(ctx: ActionContext, raw = false): string {
  if (ctx.value === null) return '';
  if (raw || typeof ctx.value !== 'number' || !Number.isFinite(ctx.value)) return String(ctx.value);
  return VALUE_FORMAT[ctx.language].format(ctx.value);
}

const PATTERN = /\{(device|field|value|unit|time|rule)\}/g;

/**
 * Replaces `{device}`, `{field}`, `{value}`, `{unit}`, `{time}` and `{rule}` in a text for people (numbers
 * in the delivery's language); anything else in braces stays as written.
 */
export function fillPlaceholders(template: string, ctx: ActionContext): string {
  const values = placeholderValues(ctx);
  return template.replace(PATTERN, (_match, name: Placeholder) => values[name]);
}

/**
 * The same inside a webhook's JSON body (it has braces of its own): each value JSON-escaped, numbers as
 * JavaScript writes them, so `{"value": {value}}` stays a JSON number.
 */
export function fillJsonPlaceholders(template: string, ctx: ActionContext): string {
  const values = placeholderValues(ctx, true);
  return template.replace(PATTERN, (_match, name: Placeholder) => jsonStringEscape(values[name]));
}

/** For placeholders inside JSON strings: the value JSON-escaped, without the surrounding quotes. */
function jsonStringEscape(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}
