/**
 * The field lists of device series (device_series, migration 0043) as the storage writer last saw them
 * committed, so a batch splits its values in TypeScript without asking the database, and asks only for the
 * devices it has not seen or that sent a field their list lacks.
 *
 * Why a cached list stays right: a series' fields are only ever appended, so a position read once keeps its
 * meaning for as long as the series exists; a list that lacks a newer field is merely short, and a row with
 * that field asks again. A series is deleted only with its device or company, and its id (an identity) is
 * never used again: the insert joins each row's series by id, device and company, so a row for a series
 * gone meanwhile is left out, as a row of a deleted device always was. Lists are remembered only once the
 * transaction that read or extended them committed (`remember`): a list extended by a transaction that
 * rolled back would name positions another writer may give to other fields.
 */
import type { Db } from '../db';

export interface SeriesFields {
  id: number;
  /** Field name to its index in the value arrays (0-based; position - 1 in SQL). */
  positions: ReadonlyMap<string, number>;
}

/** Devices of a large fleet fit many times over; beyond it the cache starts again rather than grow. */
const MAX_ENTRIES = 200_000;

export function seriesKey(deviceId: number, companyId: number): string {
  return `${deviceId}:${companyId}`;
}

export function seriesFields(id: number, fields: readonly string[]): SeriesFields {
  return { id, positions: new Map(fields.map((name, i) => [name, i])) };
}

export class DeviceSeriesCache {
  private readonly entries = new Map<string, SeriesFields>();

  get(key: string): SeriesFields | undefined {
    return this.entries.get(key);
  }

  /** Lists read or extended by a transaction that has committed. */
  remember(learned: ReadonlyMap<string, SeriesFields>): void {
    if (this.entries.size + learned.size > MAX_ENTRIES) this.entries.clear();
    for (const [key, series] of learned) this.entries.set(key, series);
  }
}

/** One cache per database: series ids belong to it (tests open many in one process). */
const caches = new WeakMap<Db, DeviceSeriesCache>();

export function seriesCacheOf(db: Db): DeviceSeriesCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new DeviceSeriesCache();
    caches.set(db, cache);
  }
  return cache;
}
