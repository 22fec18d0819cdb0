import { describe, expect, it } from 'vitest';
import { addRow, moveRow, toEntries, toRows, validateRows } from './metadata-rows';

describe('metadata editor rows', () => {
  const rows = toRows([
    { data_field: 'humidity', label: 'Humidity', sort: 20 },
    { data_field: 'temperature', label: 'Temperature', sort: 10 },
  ]);

  it('orders by sort and adds after the highest', () => {
    expect(rows.map((r) => r.data_field)).toEqual(['temperature', 'humidity']);
    expect(addRow(rows, 'co2').at(-1)).toMatchObject({ data_field: 'co2', sort: '30' });
    expect(addRow(toRows([{ data_field: 'a', label: 'a', sort: 99995 }])).at(-1)?.sort).toBe('99999');
  });

  it('reorders and renumbers', () => {
    expect(toEntries(moveRow(rows, 1, -1))).toEqual([
      { data_field: 'humidity', label: 'Humidity', sort: 10 },
      { data_field: 'temperature', label: 'Temperature', sort: 20 },
    ]);
    expect(moveRow(rows, 0, -1)).toEqual(rows);
  });

  it.each([
    ['1', null],
    ['99999', null],
    ['0', 'error.sort-value'],
    ['100000', 'error.sort-value'],
    ['1.5', 'error.sort-value'],
    ['', 'error.required'],
  ])('sort %j gives %s (spec: 1 to 99999)', (sort, key) => {
    const errors = validateRows([{ key: 1, data_field: 'x', label: 'X', sort }]);
    expect(errors.get(1)?.sort?.key ?? null).toBe(key);
  });

  it('needs a field and a label', () => {
    expect(
      Object.keys(validateRows([{ key: 1, data_field: '', label: '', sort: '5' }]).get(1) ?? {}),
    ).toEqual(['data_field', 'label']);
  });
});
