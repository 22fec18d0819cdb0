/**
 * Soils and plants a field picks from (issue 24): the built-in catalogues of @iot/domain plus the
 * company's own entries. Managers add and remove own entries; a code may not repeat a built-in or own one.
 */
import type { Db, FarmingCatalogue } from '@iot/db';
import {
  deleteCatalogueEntry,
  ensureCatalogueEntry,
  listCatalogue,
  updateCatalogueEntry,
  withTenant,
} from '@iot/db';
import { BUILTIN_PLANTS, BUILTIN_SOILS } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { farmingWrite, requireFarmingManager } from './farming-common';

export interface CatalogueEntryOut {
  id: number | null;
  code: string;
  name_de: string;
  name_en: string;
  builtin: boolean;
}

const BUILTIN = { soils: BUILTIN_SOILS, plants: BUILTIN_PLANTS };

export async function listFarmingCatalogue(
  db: Db,
  auth: AuthContext,
  kind: FarmingCatalogue,
): Promise<CatalogueEntryOut[]> {
  const own = await withTenant(db, auth.companyId, (tx) => listCatalogue(tx, kind, auth.companyId));
  const builtinCodes = new Set(BUILTIN[kind].map((entry) => entry.code));
  return [
    ...BUILTIN[kind].map((entry) => ({ id: null, ...entry, builtin: true })),
    ...own.filter((entry) => !builtinCodes.has(entry.code)).map((entry) => ({ ...entry, builtin: false })),
  ];
}

export async function addCatalogueEntry(
  db: Db,
  auth: AuthContext,
  kind: FarmingCatalogue,
  entry: { code: string; name_de: string; name_en: string },
): Promise<CatalogueEntryOut> {
  requireFarmingManager(auth, 'FIELD_NO_PERMISSION');
  const code = entry.code.trim();
  const taken = kind === 'soils' ? 'SOIL_CODE_TAKEN' : 'PLANT_CODE_TAKEN';
  if (code === '' || BUILTIN[kind].some((b) => b.code === code)) throw apiError(taken);
  return farmingWrite(db, auth, kind === 'soils' ? 'SOIL_INVALID' : 'PLANT_INVALID', async (tx) => {
    const own = await listCatalogue(tx, kind, auth.companyId);
    if (own.some((e) => e.code === code)) throw apiError(taken);
    const row = await ensureCatalogueEntry(tx, kind, auth.companyId, {
      code,
      name_de: entry.name_de.trim(),
      name_en: entry.name_en.trim(),
    });
    return { ...row, builtin: false };
  });
}

/** Renames one of the company's own entries; built-in ones have no row id and cannot be renamed. */
export async function renameCatalogueEntry(
  db: Db,
  auth: AuthContext,
  kind: FarmingCatalogue,
  id: number,
  names: { name_de: string; name_en: string },
): Promise<CatalogueEntryOut> {
  requireFarmingManager(auth, 'FIELD_NO_PERMISSION');
  const notFound = kind === 'soils' ? 'SOIL_NOT_FOUND' : 'PLANT_NOT_FOUND';
  return farmingWrite(db, auth, kind === 'soils' ? 'SOIL_INVALID' : 'PLANT_INVALID', async (tx) => {
    const row = await updateCatalogueEntry(tx, kind, auth.companyId, id, {
      name_de: names.name_de.trim(),
      name_en: names.name_en.trim(),
    });
    // A built-in entry copied into the company's table keeps its catalogue names.
    if (!row || BUILTIN[kind].some((b) => b.code === row.code)) throw apiError(notFound);
    return { ...row, builtin: false };
  });
}

export async function removeCatalogueEntry(db: Db, auth: AuthContext, kind: FarmingCatalogue, id: number) {
  requireFarmingManager(auth, 'FIELD_NO_PERMISSION');
  await farmingWrite(db, auth, kind === 'soils' ? 'SOIL_INVALID' : 'PLANT_INVALID', async (tx) => {
    if (!(await deleteCatalogueEntry(tx, kind, auth.companyId, id))) {
      throw apiError(kind === 'soils' ? 'SOIL_NOT_FOUND' : 'PLANT_NOT_FOUND');
    }
  });
}
