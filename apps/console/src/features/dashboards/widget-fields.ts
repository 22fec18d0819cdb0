import { dataFieldLabel } from '../../lib/field-label';
import type { Device } from '../../types/device';

/**
 * Data fields a widget can show for some devices: the keys of their latest values (virtual fields
 * included, as 'virtual.<uuid>.<name>') and their metadata entries, sorted, without coordinates.
 */
export function availableFields(devices: readonly Device[]): string[] {
  const fields = new Set<string>();
  for (const d of devices) {
    for (const key of Object.keys(d.data ?? {})) fields.add(key);
    for (const entry of d.metadata?.data_fields ?? []) fields.add(entry.data_field);
  }
  fields.delete('latitude');
  fields.delete('longitude');
  fields.delete('geo');
  return [...fields].sort();
}

/** A field as the catalogue words it in the interface language; a virtual field shows its name. */
export function fieldLabel(field: string): string {
  return dataFieldLabel(field);
}
