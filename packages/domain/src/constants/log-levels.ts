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

/**
 * The numbers writers store in `device_logs.level`, chosen so that `logLevelName` reads each back as its
 * own name. Syslog's numbering (5 notice, 6 info, 7 debug) would read as info, debug and emergency under
 * the spec's mapping, so the platform writes these instead.
 */
export const DEVICE_LOG_LEVEL = {
  critical: 2,
  error: 3,
  warning: 4,
  info: 5,
  debug: 6,
} as const satisfies Record<string, number>;
