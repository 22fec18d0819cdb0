import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from './checkbox';
import { Input } from './input';

export interface CheckboxOption {
  value: string;
  label: string;
}

/**
 * A searchable multi-select as a list of checkboxes (devices of a group, a widget's devices and fields).
 * Selected options come first; long lists show the first `limit` matches, the search finds the rest.
 */
export function CheckboxList({
  options,
  value,
  onChange,
  testId,
  limit = 300,
}: {
  options: readonly CheckboxOption[];
  value: readonly string[];
  onChange: (values: string[]) => void;
  testId: string;
  limit?: number;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const selected = useMemo(() => new Set(value), [value]);
  const needle = search.trim().toLowerCase();
  const shown = options
    .filter((o) => !needle || o.label.toLowerCase().includes(needle))
    .sort(
      (a, b) =>
        Number(selected.has(b.value)) - Number(selected.has(a.value)) || a.label.localeCompare(b.label),
    )
    .slice(0, limit);
  const toggle = (v: string, on: boolean) =>
    onChange(on ? [...value.filter((x) => x !== v), v] : value.filter((x) => x !== v));
  return (
    <div className="flex flex-col gap-2" data-testid={testId} data-selected={value.length}>
      <Input
        placeholder={t('common.search')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        data-testid={`${testId}-search`}
      />
      <ul className="max-h-60 overflow-auto rounded-md border">
        {shown.map((o) => (
          <li key={o.value} className="flex items-center gap-2 border-b px-3 py-1.5 text-sm last:border-b-0">
            <Checkbox
              id={`${testId}-${o.value}`}
              checked={selected.has(o.value)}
              onCheckedChange={(on) => toggle(o.value, on === true)}
              data-testid={`${testId}-option-${o.value}`}
            />
            <label htmlFor={`${testId}-${o.value}`} className="flex-1 cursor-pointer truncate">
              {o.label}
            </label>
          </li>
        ))}
        {shown.length === 0 && (
          <li className="px-3 py-2 text-sm text-muted-foreground">{t('common.no-data')}</li>
        )}
      </ul>
      <p className="text-xs text-muted-foreground">{t('common.selected', { count: value.length })}</p>
    </div>
  );
}
