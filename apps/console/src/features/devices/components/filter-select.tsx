import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { cn } from '../../../lib/utils';

/** Radix Select has no empty value, so "no filter" travels as this sentinel. */
const ALL = '__all';

export interface FilterOption {
  value: string;
  label: string;
  testId?: string;
}

export interface FilterSelectProps {
  /** The chosen value, or null for "all". */
  value: string | number | null;
  onChange: (value: string | null) => void;
  /** Label of the "all" entry. */
  allLabel: string;
  options: readonly FilterOption[];
  testId: string;
  ariaLabel: string;
  className?: string;
}

/** One filter of the device list: a select whose first entry clears the filter. */
export function FilterSelect({
  value,
  onChange,
  allLabel,
  options,
  testId,
  ariaLabel,
  className,
}: FilterSelectProps) {
  return (
    <Select
      value={value === null ? ALL : String(value)}
      onValueChange={(v) => onChange(v === ALL ? null : v)}
    >
      <SelectTrigger className={cn('w-40', className)} data-testid={testId} aria-label={ariaLabel}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>{allLabel}</SelectItem>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value} data-testid={option.testId}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
