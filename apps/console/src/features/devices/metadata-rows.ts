import { FORM_RULES, SORT_VALUE_MAX, type ValidationError, validateObject } from '@iot/domain';
import type { MetadataEntry } from '../../types/device';

/** The metadata editor's rows (sort kept as typed text until saved) and its pure operations. */
export interface MetadataRow {
  key: number;
  data_field: string;
  label: string;
  sort: string;
}

export function toRows(entries: readonly MetadataEntry[]): MetadataRow[] {
  return [...entries]
    .sort((a, b) => Number(a.sort) - Number(b.sort))
    .map((e, i) => ({ key: i + 1, data_field: e.data_field, label: e.label, sort: String(e.sort) }));
}

/** A new row sorts after the others: the highest sort plus 10, at most 99999. */
export function addRow(rows: readonly MetadataRow[], dataField = ''): MetadataRow[] {
  const highest = Math.max(0, ...rows.map((r) => Number(r.sort)).filter(Number.isFinite));
  const key = Math.max(0, ...rows.map((r) => r.key)) + 1;
  return [
    ...rows,
    { key, data_field: dataField, label: dataField, sort: String(Math.min(SORT_VALUE_MAX, highest + 10)) },
  ];
}

/** Moves a row up or down and renumbers every sort in steps of 10, so the order is the one shown. */
export function moveRow(rows: readonly MetadataRow[], index: number, step: -1 | 1): MetadataRow[] {
  const target = index + step;
  if (target < 0 || target >= rows.length) return [...rows];
  const next = [...rows];
  const [moved] = next.splice(index, 1);
  if (moved) next.splice(target, 0, moved);
  return next.map((r, i) => ({ ...r, sort: String(Math.min(SORT_VALUE_MAX, (i + 1) * 10)) }));
}

/** Errors per row key and field, by the domain's metadataEntry rules (sort 1 to 99999). */
export function validateRows(rows: readonly MetadataRow[]): Map<number, Record<string, ValidationError>> {
  const errors = new Map<number, Record<string, ValidationError>>();
  for (const row of rows) {
    const e = validateObject(row as unknown as Record<string, unknown>, FORM_RULES.metadataEntry);
    if (Object.keys(e).length > 0) errors.set(row.key, e);
  }
  return errors;
}

export function toEntries(rows: readonly MetadataRow[]): MetadataEntry[] {
  return rows.map((r) => ({ data_field: r.data_field.trim(), label: r.label.trim(), sort: Number(r.sort) }));
}
