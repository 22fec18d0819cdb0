/**
 * Virtual devices (migration 0028, issue 23): when an input device reports, each virtual device reading
 * it computes its fields from the inputs' latest values (device_current) with this uplink's data laid
 * over them. The point is evaluated like an uplink of the virtual device (its rules fire, its own
 * virtual fields compute), and stored like one: a device_data row and its latest values. It carries the
 * log position of the uplink that caused it, so a redelivered batch skips it as it skips its source.
 * The virtual devices and their inputs' latest values come with the batch's inputs (readInputs in
 * evaluate-uplink-batch.ts), so a batch makes no query of its own for them.
 */
import type { DerivedDataRow, VirtualDeviceRecord, VirtualDevicesOfInputs } from '@iot/db';
import { compileFormula } from '@iot/rules-engine';
import type { PositionedUplink } from './uplink-record.js';

/** An input reference in a formula: d<device id>.<data field>. */
const INPUT = /^d(\d+)\.(.+)$/;

export interface VirtualPoints {
  uplinks: PositionedUplink[];
  rows: DerivedDataRow[];
  current: { deviceId: number; companyId: number; at: string; data: Record<string, number> }[];
}

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/** The virtual device's fields over `latest` (device id -> values); fields with a missing input are left out. */
export function computeVirtualFields(
  device: Pick<VirtualDeviceRecord, 'fields'>,
  latest: ReadonlyMap<number, Record<string, unknown>>,
): Record<string, number> {
  const data: Record<string, number> = {};
  for (const field of device.fields) {
    const compiled = compileFormula(field.formula);
    if (!compiled.ok) continue;
    const values: number[] = [];
    for (const name of compiled.formula.fields) {
      const match = INPUT.exec(name);
      const value = match ? numeric(latest.get(Number(match[1]))?.[match[2]!]) : undefined;
      if (value === undefined) break;
      values.push(value);
    }
    if (values.length !== compiled.formula.fields.length) continue;
    const result = compiled.formula.evaluate(values);
    if (result !== null) data[field.key] = Math.round(result * 1e6) / 1e6;
  }
  return data;
}

/** The points the batch's uplinks cause on the virtual devices that read them. */
export function computeVirtualPoints(
  virtual: VirtualDevicesOfInputs,
  uplinks: readonly PositionedUplink[],
): VirtualPoints {
  const out: VirtualPoints = { uplinks: [], rows: [], current: [] };
  const { devices } = virtual;
  if (devices.length === 0) return out;
  const latest = new Map<number, Record<string, unknown>>();
  for (const [id, data] of virtual.latest) latest.set(id, { ...data });
  for (const positioned of uplinks) {
    const { uplink } = positioned;
    latest.set(uplink.deviceId, { ...latest.get(uplink.deviceId), ...uplink.data });
    for (const device of devices) {
      if (device.companyId !== uplink.companyId || !device.inputDeviceIds.includes(uplink.deviceId)) continue;
      const data = computeVirtualFields(device, latest);
      if (Object.keys(data).length === 0) continue;
      const messageId = `virtual:${uplink.deviceId}:${uplink.messageId}`;
      out.uplinks.push({
        ...positioned,
        uplink: {
          ...uplink,
          deviceId: device.id,
          companyId: device.companyId,
          messageId,
          data,
          geo: undefined,
          fcnt: undefined,
        },
      });
      out.rows.push({
        device_id: device.id,
        company_id: device.companyId,
        created_at: new Date(uplink.measuredAt).toISOString(),
        message_id: messageId,
        data,
        latitude: null,
        longitude: null,
        fcnt: null,
      });
      out.current.push({ deviceId: device.id, companyId: device.companyId, at: uplink.measuredAt, data });
    }
  }
  return out;
}
