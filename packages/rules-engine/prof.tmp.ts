import { evaluateUplinks, type Rule } from './src/index';

const T0 = Date.parse('2026-03-02T00:00:00Z');
const rules: Rule[] = Array.from({ length: 10 }, (_, i) => ({
  id: String(i),
  trigger: 'data',
  dataField: 'temperature',
  operator: 'gte',
  value: 30,
}));
const uplinks = Array.from({ length: 100_000 }, (_, i) => ({
  receivedAt: T0 + i * 60_000,
  data: { temperature: (i * 7) % 40 },
}));
for (const batch of [1, 10, 100, 1000]) {
  let states = {};
  const t = performance.now();
  for (let s = 0; s < uplinks.length; s += batch)
    states = evaluateUplinks({
      device: { id: '1' },
      rules,
      uplinks: uplinks.slice(s, s + batch),
      states,
      now: T0 + 1e12,
    }).newStates;
  console.log(batch, Math.round(100_000 / ((performance.now() - t) / 1000)));
}
