import Papa from 'papaparse';
import type { FieldBoundary, Parcel } from '../api/farming-api';

/**
 * Parcels from a German IACS export (CSV with FLIK, SCHLAGNR and a size in ha or m², or GeoJSON features
 * with the same properties), compared with the company's parcels before anything is written.
 */
export interface ImportRow {
  parcel_id: string;
  registration_number: string;
  size_m2: number;
  boundary: FieldBoundary | null;
  state: 'new' | 'changed' | 'unchanged' | 'conflict';
  existingId: number | null;
  problem?: string;
}

type Raw = Record<string, unknown>;

function pick(raw: Raw, names: string[]): unknown {
  const key = Object.keys(raw).find((k) => names.includes(k.trim().toUpperCase()));
  return key === undefined ? undefined : raw[key];
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  // German exports write decimal commas (and may group thousands with dots).
  const text = String(value ?? '').trim();
  return Number(text.includes(',') ? text.replace(/\./g, '').replace(',', '.') : text);
}

function rowOf(raw: Raw, boundary: FieldBoundary | null): Omit<ImportRow, 'state' | 'existingId'> {
  const ha = pick(raw, ['GROESSE_HA', 'FLAECHE_HA', 'SIZE_HA', 'HA']);
  const m2 = pick(raw, ['GROESSE_M2', 'FLAECHE_M2', 'SIZE_M2', 'M2']);
  const size = ha !== undefined && ha !== '' ? toNumber(ha) * 10_000 : toNumber(m2);
  return {
    parcel_id: String(pick(raw, ['SCHLAGNR', 'SCHLAG', 'PARCEL_ID']) ?? '').trim(),
    registration_number: String(pick(raw, ['FLIK', 'REGISTRATION_NUMBER']) ?? '')
      .trim()
      .toUpperCase(),
    size_m2: Math.round(size * 100) / 100,
    boundary,
  };
}

export function parseImport(fileName: string, text: string): Array<Omit<ImportRow, 'state' | 'existingId'>> {
  if (/\.(geo)?json$/i.test(fileName)) {
    const json = JSON.parse(text) as {
      features?: Array<{ properties?: Raw; geometry?: FieldBoundary | null }>;
    };
    return (json.features ?? []).map((f) => {
      const geometry =
        f.geometry?.type === 'Polygon' || f.geometry?.type === 'MultiPolygon' ? f.geometry : null;
      return rowOf(f.properties ?? {}, geometry);
    });
  }
  const parsed = Papa.parse<Raw>(text, {
    header: true,
    skipEmptyLines: true,
    delimitersToGuess: [';', ',', '\t'],
  });
  return parsed.data.map((raw) => rowOf(raw, null));
}

/** Marks each row against the existing parcels: same plot number and FLIK is the same parcel. */
export function compareImport(
  rows: Array<Omit<ImportRow, 'state' | 'existingId'>>,
  existing: Parcel[],
): ImportRow[] {
  return rows.map((row) => {
    if (!row.parcel_id || !Number.isFinite(row.size_m2) || row.size_m2 < 0) {
      return { ...row, state: 'conflict', existingId: null, problem: 'invalid' };
    }
    const same = existing.find(
      (p) => p.parcel_id === row.parcel_id && p.registration_number === row.registration_number,
    );
    if (!same) {
      const clash = existing.find((p) => p.parcel_id === row.parcel_id);
      return clash
        ? { ...row, state: 'conflict', existingId: clash.id, problem: 'other-flik' }
        : { ...row, state: 'new', existingId: null };
    }
    return { ...row, state: same.size_m2 === row.size_m2 ? 'unchanged' : 'changed', existingId: same.id };
  });
}
