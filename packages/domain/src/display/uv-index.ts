/** UV index classes (spec section 4), on the WHO scale. */
export const UV_INDEX_CLASSES = ['low', 'moderate', 'high', 'very-high', 'extreme'] as const;
export type UvIndexClass = (typeof UV_INDEX_CLASSES)[number];

/** WHO bands: 0-2 low, 3-5 moderate, 6-7 high, 8-10 very high, 11+ extreme; fractions round down into a band. */
export function uvIndexClass(index: number | null | undefined): UvIndexClass | null {
  if (index === null || index === undefined || !Number.isFinite(index) || index < 0) return null;
  if (index < 3) return 'low';
  if (index < 6) return 'moderate';
  if (index < 8) return 'high';
  if (index < 11) return 'very-high';
  return 'extreme';
}
