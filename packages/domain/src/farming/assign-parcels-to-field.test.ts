import { describe, expect, it } from 'vitest';
import { assignParcelsToField, sumParcelArea } from './assign-parcels-to-field';

const p1 = { id: 1, size_m2: 5000 };
const p2 = { id: 2, size_m2: 7500 };
const p3 = { id: 3, size_m2: 250 };

const fields = [
  { id: 10, name: 'North', parcels: [p1, p2], count_parcels: 2, size_m2: 12_500 },
  { id: 20, name: 'South', parcels: [p3], count_parcels: 1, size_m2: 250 },
  { id: 30, name: 'East', parcels: [], count_parcels: 0, size_m2: 0 },
];

describe('assignParcelsToField (spec section 4)', () => {
  it('sets count and area from the parcels and removes them from other fields', () => {
    const result = assignParcelsToField({ fields, fieldId: 20, parcels: [p2, p3] });
    expect(result.map(({ id, count_parcels, size_m2 }) => ({ id, count_parcels, size_m2 }))).toEqual([
      { id: 10, count_parcels: 1, size_m2: 5000 },
      { id: 20, count_parcels: 2, size_m2: 7750 },
      { id: 30, count_parcels: 0, size_m2: 0 },
    ]);
    expect(result[0]?.parcels).toEqual([p1]);
    expect(result[1]?.name).toBe('South');
  });

  it('leaves untouched fields as the same objects', () => {
    const result = assignParcelsToField({ fields, fieldId: 30, parcels: [p3] });
    expect(result[0]).toBe(fields[0]);
    expect(result[1]).toMatchObject({ count_parcels: 0, size_m2: 0 });
    expect(result[2]).toMatchObject({ count_parcels: 1, size_m2: 250 });
  });

  it('clears a field when given no parcels', () => {
    expect(assignParcelsToField({ fields, fieldId: 10, parcels: [] })[0]).toMatchObject({
      parcels: [],
      count_parcels: 0,
      size_m2: 0,
    });
  });

  it('sums parcel areas and skips broken sizes', () => {
    expect(sumParcelArea([p1, p2, p3])).toBe(12_750);
    expect(sumParcelArea([p1, { id: 9, size_m2: Number.NaN }])).toBe(5000);
  });
});
