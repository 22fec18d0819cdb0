/** Parses `1,2,3` (the pattern already holds); more than MAX_IDS distinct ids is a 422. */
export function parseIds(value: string): number[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
        .map(Number),
    ),
  ];
}
