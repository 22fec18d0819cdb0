/**
 * POST /core/devices/virtual (spec section 2 "add virtual device"; issue 23): only ROLE_ADMIN (90016).
 * A virtual device has no hardware: each of its data fields is a formula over other devices' fields of
 * the acting company, written d<device id>.<field>, e.g. `(d12.soil_humidity + d13.soil_humidity) / 2`.
 * A formula that does not compile is 89; one naming no input, or a device that is not the company's
 * (unknown and foreign look the same), is 90017. The rules worker computes the fields whenever an input
 * reports (apps/rules-worker/src/virtual-devices.ts). Device, formulas and inputs go in one transaction.
 */
import type { Db } from '@iot/db';
import { groupExists, insertVirtualDevice, ownedDeviceIds, recordAuditEvent, withTenant } from '@iot/db';
import { isApiError, rule } from '@iot/domain';
import { compileFormula } from '@iot/rules-engine';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import { ROLE_ADMIN } from '../plugins/guards';
import type { AuthContext } from '../types';

export interface VirtualDeviceBody {
  name: string | null;
  description?: string | null;
  group_id?: number | null;
  fields: { key: string; formula: string }[];
}

const INPUT = /^d(\d+)\.(.+)$/;
const FIELD_KEY = /^[a-z][a-z0-9_]{0,63}$/;

/** The input device ids the formulas read; 89 / 90017 / 422 for what is wrong. */
function readFormulas(fields: VirtualDeviceBody['fields']): number[] {
  const inputs = new Set<number>();
  const keys = new Set<string>();
  fields.forEach((field, index) => {
    if (!FIELD_KEY.test(field.key) || keys.has(field.key))
      throw apiError('INPUT_ERROR', { fields: { [`fields.${index}.key`]: { key: 'error.unknown' } } });
    keys.add(field.key);
    const compiled = compileFormula(field.formula);
    if (!compiled.ok)
      throw apiError('VIRTUAL_FIELD_FORMULA_INVALID', {
        index,
        problem: compiled.error.problem,
        message: compiled.error.message,
      });
    if (compiled.formula.fields.length === 0)
      throw apiError('VIRTUAL_DEVICE_INPUT_UNKNOWN', { index, message: 'the formula reads no device' });
    for (const name of compiled.formula.fields) {
      const match = INPUT.exec(name);
      if (!match) throw apiError('VIRTUAL_DEVICE_INPUT_UNKNOWN', { index, reference: name });
      inputs.add(Number(match[1]));
    }
  });
  return [...inputs].sort((a, b) => a - b);
}

export async function addVirtualDevice(db: Db, auth: AuthContext, body: VirtualDeviceBody): Promise<number> {
  if (!auth.roles.includes(ROLE_ADMIN)) throw apiError('NO_PERMISSION_TO_ADD_VIRTUAL_DEVICES');
  const name = (body.name ?? '').trim();
  validateBody(
    { name, description: body.description ?? undefined },
    {
      name: ['required', rule.maxLength(255)],
      description: [rule.maxLength(2000)],
    },
  );
  const inputDeviceIds = readFormulas(body.fields);
  try {
    return await withTenant(db, auth.companyId, async (tx) => {
      const owned = await ownedDeviceIds(tx, auth.companyId, inputDeviceIds);
      if (owned.length !== inputDeviceIds.length)
        throw apiError('VIRTUAL_DEVICE_INPUT_UNKNOWN', {
          device_ids: inputDeviceIds.filter((id) => !owned.includes(id)),
        });
      if (body.group_id != null && !(await groupExists(tx, auth.companyId, body.group_id)))
        throw apiError('GROUP_NOT_FOUND');
      const id = await insertVirtualDevice(tx, auth.companyId, {
        name,
        description: body.description?.trim() || null,
        groupId: body.group_id ?? null,
        fields: body.fields.map((f) => ({ key: f.key, formula: f.formula })),
        inputDeviceIds,
      });
      await recordAuditEvent(tx, {
        companyId: auth.companyId,
        userId: auth.user.id,
        action: 'device.create_virtual',
        details: { device_id: id, inputs: inputDeviceIds },
      });
      return id;
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError('VIRTUAL_DEVICE_CREATE_FAILED');
  }
}
