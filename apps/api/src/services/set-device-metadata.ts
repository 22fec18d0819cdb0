/**
 * PUT /core/devices/{id}/metadata: the labels and order of a device's data fields,
 * `{ data_fields: [{ data_field, label, sort }] }`. Every entry is checked with the domain's metadataEntry
 * rules (data field and label required, sort a whole number 1 to 99999, spec section 5); a data field
 * listed twice is a duplicate. Failures answer 422 with `details.fields['data_fields.<i>.<key>']` and
 * change nothing. Stored sorted by sort value. ROLE_ADMIN or ROLE_MAINUSER (editing a device), else 90001.
 */
import type { Db } from '@iot/db';
import { updateDevice, withTenant } from '@iot/db';
import { FORM_RULES, hasErrors, type ValidationError, validateObject } from '@iot/domain';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export interface MetadataEntry {
  data_field: string;
  label: string;
  sort: number | string;
}

export async function setDeviceMetadata(
  db: Db,
  auth: AuthContext,
  id: number,
  entries: readonly MetadataEntry[],
): Promise<{ data_fields: { data_field: string; label: string; sort: number }[] }> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_EDIT_DEVICES');
  const fields: Record<string, ValidationError> = {};
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const errors = validateObject(entry as unknown as Record<string, unknown>, FORM_RULES.metadataEntry);
    for (const [key, error] of Object.entries(errors)) fields[`data_fields.${i}.${key}`] = error;
    const name = typeof entry.data_field === 'string' ? entry.data_field.trim() : '';
    if (name !== '' && seen.has(name))
      fields[`data_fields.${i}.data_field`] = { key: 'error.duplicate-values' };
    seen.add(name);
  });
  if (hasErrors(fields)) throw apiError('INPUT_ERROR', { fields });

  const dataFields = entries
    .map((e) => ({ data_field: e.data_field.trim(), label: e.label.trim(), sort: Number(e.sort) }))
    .sort((a, b) => a.sort - b.sort);
  const metadata = { data_fields: dataFields };
  const found = await withTenant(db, auth.companyId, (tx) =>
    updateDevice(tx, auth.companyId, id, { metadata }),
  );
  if (!found) throw apiError('DEVICE_NOT_FOUND');
  return metadata;
}
