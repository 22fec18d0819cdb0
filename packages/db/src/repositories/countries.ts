/**
 * Reference geography for company addresses: countries, their states and the states' districts.
 * Shared by all tenants (not tenant-owned); every list is sorted by name (spec section 7).
 * Sorting happens here, not in SQL: ORDER BY follows the database's collation, which is "C" on PGlite
 * (Österreich after Schweiz) and often a locale on PostgreSQL; a German collator gives one order on both.
 */
import type { Queryable } from '../db';

const collator = new Intl.Collator('de', { sensitivity: 'base', numeric: true });

function byName<T extends { id: number; name: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
}

export interface Country {
  id: number;
  code: string;
  name: string;
}

export interface NamedRef {
  id: number;
  name: string;
}

export async function listCountries(q: Queryable): Promise<Country[]> {
  const { rows } = await q.query<Country>('SELECT id, code, name FROM countries');
  return byName(rows);
}

export async function countryExists(q: Queryable, countryId: number): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM countries WHERE id = $1', [countryId]);
  return rows.length > 0;
}

export async function stateExists(q: Queryable, stateId: number): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM states WHERE id = $1', [stateId]);
  return rows.length > 0;
}

/** States of a country; null when the country does not exist (so the caller can answer 404). */
export async function listStates(q: Queryable, countryId: number): Promise<NamedRef[] | null> {
  if (!(await countryExists(q, countryId))) return null;
  const { rows } = await q.query<NamedRef>('SELECT id, name FROM states WHERE country_id = $1', [countryId]);
  return byName(rows);
}

/** Districts of a state; null when the state does not exist. */
export async function listDistricts(q: Queryable, stateId: number): Promise<NamedRef[] | null> {
  if (!(await stateExists(q, stateId))) return null;
  const { rows } = await q.query<NamedRef>('SELECT id, name FROM districts WHERE state_id = $1', [stateId]);
  return byName(rows);
}

/** Checks that a district lies in the state and the state in the country, as far as they are given. */
export async function isConsistentAddress(
  q: Queryable,
  ref: { countryId?: number | null; stateId?: number | null; districtId?: number | null },
): Promise<boolean> {
  if (ref.countryId != null && !(await countryExists(q, ref.countryId))) return false;
  if (ref.stateId != null) {
    const { rows } = await q.query<{ country_id: number }>('SELECT country_id FROM states WHERE id = $1', [
      ref.stateId,
    ]);
    if (!rows[0]) return false;
    if (ref.countryId != null && rows[0].country_id !== ref.countryId) return false;
  }
  if (ref.districtId != null) {
    const { rows } = await q.query<{ state_id: number }>('SELECT state_id FROM districts WHERE id = $1', [
      ref.districtId,
    ]);
    if (!rows[0]) return false;
    if (ref.stateId != null && rows[0].state_id !== ref.stateId) return false;
  }
  return true;
}
