import { type FieldRules, rule } from '@iot/domain';
import type { VirtualField, VirtualFieldInput } from './types';

export interface VirtualFieldFormValues {
  name: string;
  unit: string;
  formula: string;
  function: string;
  /** one `value=label` per line; values exact ("0", "true") or ranges ("10..20", "..0", "30..") */
  mapping: string;
  store: boolean;
}

/**
 * The short name is required and at most the engine's 100 characters (longer is the API's 88). The
 * domain's FORM_RULES.virtualField judges the full `virtual.<uuid>.<name>`, which the API builds, so it
 * does not fit this input. The formula and function are judged by the API's preview (89, 90).
 */
export const VIRTUAL_FIELD_RULES: FieldRules = { name: ['required', rule.maxLength(100)] };

export function virtualFieldToForm(field: VirtualField | null): VirtualFieldFormValues {
  return {
    name: field?.name ?? '',
    unit: field?.unit ?? '',
    formula: field?.formula ?? '',
    function: field?.function ?? '',
    mapping: Object.entries(field?.mapping ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    store: field?.store ?? true,
  };
}

/** Mapping lines to the API's object; a numeric label stays a number. Lines without `=` are skipped. */
export function parseMapping(text: string): Record<string, string | number> | null {
  const out: Record<string, string | number> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    const label = line.slice(at + 1).trim();
    if (!key) continue;
    out[key] = label !== '' && Number.isFinite(Number(label)) ? Number(label) : label;
  }
  return Object.keys(out).length > 0 ? out : null;
}

export function formToVirtualField(values: VirtualFieldFormValues): VirtualFieldInput {
  return {
    name: values.name.trim(),
    unit: values.unit.trim() || null,
    formula: values.formula.trim() || null,
    function: values.function || null,
    mapping: parseMapping(values.mapping),
    store: values.store,
  };
}
