import { dataFieldLabel } from '../../lib/field-label';
import type { DeviceWithRules, VirtualField } from './types';

export interface FieldOption {
  value: string;
  label: string;
}

function names(list: unknown[] | undefined): string[] {
  return (list ?? []).flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    if (entry && typeof entry === 'object') {
      const e = entry as Record<string, unknown>;
      const name = e.data_field ?? e.name ?? e.key;
      return typeof name === 'string' ? [name] : [];
    }
    return [];
  });
}

/**
 * The data fields a rule or check can watch: the device's known fields (details, info, metadata and the
 * latest values), labelled by the metadata or the domain's field catalogue, then its virtual fields as `virtual.<uuid>.<name>` shown by
 * name and unit.
 */
export function deviceFieldOptions(device: DeviceWithRules | undefined, virtual: readonly VirtualField[]) {
  const labels = new Map((device?.metadata?.data_fields ?? []).map((m) => [m.data_field, m.label]));
  const known = new Set([
    ...names(device?.device_details?.data_fields),
    ...names(device?.device_info?.data_fields),
    ...labels.keys(),
    ...Object.keys(device?.data ?? {}),
  ]);
  for (const v of virtual) known.delete(v.data_field);
  const plain: FieldOption[] = [...known]
    .filter((f) => !f.startsWith('virtual.'))
    .sort()
    .map((f) => {
      const label = dataFieldLabel(f, labels.get(f));
      return { value: f, label: label === f ? f : `${label} (${f})` };
    });
  const virtualOptions: FieldOption[] = virtual.map((v) => ({
    value: v.data_field,
    label: v.unit ? `${v.name} [${v.unit}]` : v.name,
  }));
  return [...plain, ...virtualOptions];
}
