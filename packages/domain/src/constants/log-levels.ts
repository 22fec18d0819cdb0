/** Device log levels, most severe first (spec section 3). */
export const LOG_LEVELS = ['emergency', 'alert', 'critical', 'error', 'warning', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Maps a numeric device log level to its name. The spec treats 0 and 1 as 2 (critical) before
 * mapping and takes the index modulo 7, so 7 wraps to emergency.
 */
export function logLevelName(level: number): LogLevel {
  const whole = Number.isFinite(level) ? Math.trunc(level) : 2;
  const raised = whole === 0 || whole === 1 ? 2 : whole;
  // Double modulo keeps negative input inside 0..6 instead of yielding undefined.
  const index = ((raised % LOG_LEVELS.length) + LOG_LEVELS.length) % LOG_LEVELS.length;
  return LOG_LEVELS[index] ?? 'critical';
}
