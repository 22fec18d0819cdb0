import { describe, expect, it } from 'vitest';
import { compareImport, parseImport } from './parcel-import';

describe('parcel import', () => {
  it('reads a German IACS CSV (FLIK, SCHLAGNR, ha with decimal comma) and marks new, changed and conflicting rows', () => {
    const csv =
      'FLIK;SCHLAGNR;GROESSE_HA\nDEBWLI0883800010;12;1,2345\ndebwli0883800011;13;0,4\nDEBWLI0883800099;14;2\n;;x\n';
    const rows = parseImport('schlaege.csv', csv);
    expect(rows.map((r) => [r.parcel_id, r.registration_number, r.size_m2])).toEqual([
      ['12', 'DEBWLI0883800010', 12_345],
      ['13', 'DEBWLI0883800011', 4_000],
      ['14', 'DEBWLI0883800099', 20_000],
      ['', '', Number.NaN],
    ]);
    const existing = [
      {
        id: 1,
        parcel_id: '13',
        registration_number: 'DEBWLI0883800011',
        size_m2: 3_000,
        field: null,
        boundary: null,
        valid_from: null,
        valid_to: null,
      },
      {
        id: 2,
        parcel_id: '14',
        registration_number: 'DEBWLI0883800050',
        size_m2: 20_000,
        field: null,
        boundary: null,
        valid_from: null,
        valid_to: null,
      },
    ];
    expect(compareImport(rows, existing).map((r) => [r.state, r.existingId])).toEqual([
      ['new', null],
      ['changed', 1],
      ['conflict', 2],
      ['conflict', null],
    ]);
  });

  it('reads GeoJSON features with their polygon and a size in m²', () => {
    const geojson = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { FLIK: 'DEBWLI0883800010', SCHLAGNR: '7', FLAECHE_M2: 950 },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [7, 48],
                [7.001, 48],
                [7.001, 48.001],
                [7, 48],
              ],
            ],
          },
        },
      ],
    });
    const [row] = parseImport('parcels.geojson', geojson);
    expect(row).toMatchObject({ parcel_id: '7', size_m2: 950, boundary: { type: 'Polygon' } });
  });
});
