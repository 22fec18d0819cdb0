/// <reference types="node" />
/**
 * Throughput of evaluateUplinks: 10 rules on one device over 100k uplinks, in batches (as the rules
 * worker calls it per device batch) and one uplink per call, beside a baseline loop that only reads the
 * rule fields of each uplink. Run: npx tsx packages/rules-engine/bench/evaluate.bench.ts
 */
import {
  type DeviceState,
  evaluateUplinks,
  type Rule,
  readValue,
  type Uplink,
  type VirtualField,
} from '../src/index';

const UPLINKS = 100_000;
const T0 = Date.parse('2026-03-02T00:00:00Z');
const device = { id: '1', dataFields: ['temperature', 'humidity', 'flow', 'battery_level', 'click_type'] };

const rules: Rule[] = [
  { id: '1', trigger: 'data', dataField: 'temperature', operator: 'gte', value: 30 },
  { id: '2', trigger: 'data', dataField: 'temperature', operator: 'lte', value: 2, timeWindowSeconds: 600 },
  { id: '3', trigger: 'data', dataField: 'temperature', operator: 'rie', value: 25 },
  { id: '4', trigger: 'data', dataField: 'humidity', operator: 'fae', value: 40 },
  { id: '5', trigger: 'data', dataField: 'humidity', operator: 'out', rangeMin: 20, rangeMax: 80 },
  {
    id: '6',
    trigger: 'data',
    dataField: 'flow',
    operator: 'eq',
    value: 0,
    maxActions: 3,
    maxActionsPeriodSeconds: 3600,
  },
  { id: '7', trigger: 'data', dataField: 'battery_level', operator: 'lte', value: 20 },
  {
    id: '8',
    trigger: 'data',
    dataField: 'temperature',
    operator: 'in',
    rangeMin: 10,
    rangeMax: 20,
    scheduleStart: '22:00',
    scheduleEnd: '06:00',
    scheduleWeekdays: [1, 2, 3, 4, 5],
  },
  { id: '9', trigger: 'click', clickType: 1, maxClicks: 2 },
  {
    id: '10',
    trigger: 'data',
    dataField: 'virtual.11111111-1111-4111-8111-111111111111.flow_hour',
    operator: 'gte',
    value: 50,
  },
];
const virtualFields: VirtualField[] = [
  {
    id: 'v1',
    uuid: '11111111-1111-4111-8111-111111111111',
    name: 'flow_hour',
    formula: 'flow > 0',
    function: 'count_up_hourly',
  },
];

let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const uplinks: Uplink[] = Array.from({ length: UPLINKS }, (_, index) => ({
  receivedAt: T0 + index * 60_000,
  data: {
    temperature: Math.round(random() * 400) / 10,
    humidity: Math.round(random() * 1000) / 10,
    flow: Math.round(random() * 3),
    battery_level: 100 - Math.floor(index / 1000),
    ...(random() < 0.05 ? { click_type: 1 } : {}),
  },
}));

function baseline(): number {
  // Reads each rule's field of each uplink: the floor any evaluation pays.
  let sum = 0;
  for (const uplink of uplinks)
    for (const rule of rules) sum += rule.dataField ? (readValue(uplink.data, rule.dataField) ?? 0) : 0;
  return sum;
}

function engine(batch: number, withVirtual: boolean): number {
  let states: Partial<DeviceState> = {};
  let firings = 0;
  for (let start = 0; start < uplinks.length; start += batch) {
    const result = evaluateUplinks({
      device,
      rules,
      virtualFields: withVirtual ? virtualFields : [],
      uplinks: uplinks.slice(start, start + batch),
      states,
      now: T0 + 1e12,
    });
    states = result.newStates;
    firings += result.firings.length;
  }
  return firings;
}

function measure(name: string, run: () => number): void {
  run(); // warm-up
  const started = performance.now();
  const result = run();
  const seconds = (performance.now() - started) / 1000;
  const perSecond = Math.round(UPLINKS / seconds);
  console.log(
    `${name.padEnd(48)} ${String(perSecond).padStart(10)} uplinks/s  ${String(perSecond * rules.length).padStart(11)} rule evaluations/s  (${result})`,
  );
}

console.log(`${UPLINKS} uplinks, ${rules.length} rules on one device`);
measure('baseline: read the rule fields only', baseline);
measure('evaluateUplinks, batches of 100', () => engine(100, false));
measure('evaluateUplinks, batches of 100, 1 virtual field', () => engine(100, true));
measure('evaluateUplinks, one uplink per call', () => engine(1, false));
