/** Soil moisture classes by pF value, very wet (pf0) to arid (pf5) (spec section 4). */
export const SOIL_MOISTURE_CLASSES = ['pf0', 'pf1', 'pf2', 'pf3', 'pf4', 'pf5'] as const;
export type SoilMoistureClass = (typeof SOIL_MOISTURE_CLASSES)[number];

/**
 * The class a pF reading falls in: pF 0 up to below 1 is pf0, and so on; 5 and above is pf5
 * (soil_water_pf1 runs 0 to 5 in steps of 0.5, spec section 5). Null for no reading.
 */
export function soilMoistureClass(pf: number | null | undefined): SoilMoistureClass | null {
  if (pf === null || pf === undefined || !Number.isFinite(pf)) return null;
  const index = Math.min(5, Math.max(0, Math.floor(pf)));
  return SOIL_MOISTURE_CLASSES[index] ?? null;
}
