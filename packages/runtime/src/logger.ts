import { pino } from 'pino';

export type Logger = pino.Logger;

/** One structured (JSON) logger per process; apps derive children with their name. */
export function createLogger(options: { level: string; name?: string }): Logger {
  return pino({ level: options.level, name: options.name });
}
