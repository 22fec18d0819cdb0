/**
 * Table sorting kept in the URL (`?sort=name` or `?sort=-name`), so a shared or reloaded link shows
 * the same order. Pure conversion; the hook lives in use-url-table-state.ts.
 */
export interface SortEntry {
  id: string;
  desc: boolean;
}

export function parseSort(value: string | null, fallback: SortEntry[]): SortEntry[] {
  if (!value) return fallback;
  const entries = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^-?[\w.]+$/.test(part))
    .map((part) => (part.startsWith('-') ? { id: part.slice(1), desc: true } : { id: part, desc: false }));
  return entries.length > 0 ? entries : fallback;
}

export function formatSort(entries: readonly SortEntry[]): string {
  return entries.map((e) => (e.desc ? `-${e.id}` : e.id)).join(',');
}
