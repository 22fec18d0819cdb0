/**
 * Farming catalogues every company starts with (issue 24): soil texture classes of the German
 * Bodenkundliche Kartieranleitung (KA5 main and common sub-groups) and the USDA texture classes, crops with
 * German and English names. A company adds its own entries on top (stored per company); fields name an
 * entry by its code.
 */
export interface CatalogueEntry {
  code: string;
  name_de: string;
  name_en: string;
}

export const BUILTIN_SOILS: readonly CatalogueEntry[] = [
  { code: 'S', name_de: 'Sand', name_en: 'Sand' },
  { code: 'lS', name_de: 'Lehmiger Sand', name_en: 'Loamy sand' },
  { code: 'uS', name_de: 'Schluffiger Sand', name_en: 'Silty sand' },
  { code: 'sL', name_de: 'Sandiger Lehm', name_en: 'Sandy loam' },
  { code: 'L', name_de: 'Lehm', name_en: 'Loam' },
  { code: 'uL', name_de: 'Schluffiger Lehm', name_en: 'Silty loam' },
  { code: 'tL', name_de: 'Toniger Lehm', name_en: 'Clayey loam' },
  { code: 'U', name_de: 'Schluff', name_en: 'Silt' },
  { code: 'lU', name_de: 'Lehmiger Schluff', name_en: 'Loamy silt' },
  { code: 'T', name_de: 'Ton', name_en: 'Clay' },
  { code: 'lT', name_de: 'Lehmiger Ton', name_en: 'Loamy clay' },
  { code: 'Mo', name_de: 'Moor', name_en: 'Peat' },
  { code: 'usda:sandy_clay_loam', name_de: 'Sandiger Tonlehm (USDA)', name_en: 'Sandy clay loam (USDA)' },
  { code: 'usda:silty_clay', name_de: 'Schluffiger Ton (USDA)', name_en: 'Silty clay (USDA)' },
];

export const BUILTIN_PLANTS: readonly CatalogueEntry[] = [
  { code: 'winter_wheat', name_de: 'Winterweizen', name_en: 'Winter wheat' },
  { code: 'winter_barley', name_de: 'Wintergerste', name_en: 'Winter barley' },
  { code: 'spring_barley', name_de: 'Sommergerste', name_en: 'Spring barley' },
  { code: 'rye', name_de: 'Roggen', name_en: 'Rye' },
  { code: 'maize', name_de: 'Mais', name_en: 'Maize' },
  { code: 'rapeseed', name_de: 'Winterraps', name_en: 'Oilseed rape' },
  { code: 'sugar_beet', name_de: 'Zuckerrübe', name_en: 'Sugar beet' },
  { code: 'potato', name_de: 'Kartoffel', name_en: 'Potato' },
  { code: 'soybean', name_de: 'Sojabohne', name_en: 'Soybean' },
  { code: 'grassland', name_de: 'Grünland', name_en: 'Grassland' },
  { code: 'grapevine', name_de: 'Weinrebe', name_en: 'Grapevine' },
  { code: 'asparagus', name_de: 'Spargel', name_en: 'Asparagus' },
];

/**
 * A German FLIK (Feldblockidentifikator): 16 characters, "DE", the federal state's two letters, two
 * letters of the block kind (e.g. LI), ten digits, e.g. DEBBLI0260100301.
 */
export const FLIK_PATTERN = /^DE[A-Z]{2}[A-Z]{2}\d{10}$/;

export function isFlik(value: string): boolean {
  return FLIK_PATTERN.test(value);
}

export const TASK_TYPES = [
  'sowing',
  'fertilising',
  'irrigation',
  'plant_protection',
  'harvest',
  'soil_sampling',
  'maintenance',
  'custom',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_STATUSES = ['planned', 'in_progress', 'done', 'abandoned'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Late is derived, not stored: due date passed while the task is still open. */
export function isTaskLate(task: { status: string; due_at: string | null }, now: Date): boolean {
  if (!task.due_at || (task.status !== 'planned' && task.status !== 'in_progress')) return false;
  return new Date(task.due_at).getTime() < now.getTime();
}
