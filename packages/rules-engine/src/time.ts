/** Epoch ms from a number or ISO text; NaN when neither. */
export function toEpochMs(value: number | string | null | undefined): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Date.parse(value);
  return Number.NaN;
}

/**
 * The time a rule or an aggregation function evaluates an uplink at. Time never runs backwards for it:
 * an uplink older than the last one it saw (delivered late, or from a device clock that stepped back)
 * is evaluated at the later of that last time and the uplink's receipt, not skipped. Skipping it would
 * silence a device whose clock stepped back until the clock caught up, and lose what a late reading
 * says (a limit crossed, an episode ended, a meter's consumption). Receipt rather than the last time
 * alone, so that a clock stuck in the past does not freeze time windows and periods. `receivedAt` is
 * asked only for such an uplink: the common one in order costs no parse of its receipt.
 */
export function evaluationTime(at: number, receivedAt: () => number, lastAt: number | undefined): number {
  if (lastAt === undefined || at >= lastAt) return at;
  const received = receivedAt();
  return received > lastAt ? received : lastAt;
}

/** The late-uplink report with the later last time and evaluation time of the two. */
export function laterOf(
  late: { lastAt: number; evaluatedAt: number } | undefined,
  lastAt: number,
  evaluatedAt: number,
): { lastAt: number; evaluatedAt: number } {
  if (!late) return { lastAt, evaluatedAt };
  return { lastAt: Math.max(late.lastAt, lastAt), evaluatedAt: Math.max(late.evaluatedAt, evaluatedAt) };
}
