/**
 * Which devices are water devices (issue #26: water meters, flow meters, valves, pumps): those whose
 * latest values carry a meter counter, a flow, a valve or a pump.
 */
const WATER_FIELD = /^(counter_[1-4]|flow_rate(_m3h)?|valve_[1-4]|pump_([1-9]|10))$/;

export function isWaterDevice(fields: Iterable<string>): boolean {
  for (const f of fields) if (WATER_FIELD.test(f)) return true;
  return false;
}
