import type { HealthCheck } from './health.js';
import type { Logger } from './logger.js';

/** A running part of the platform (HTTP server, broker, worker) that can be stopped cleanly. */
export interface Service {
  readonly name: string;
  stop(): Promise<void>;
  /** What readiness asks of this part: its broker, event log or queue answering (health.ts). */
  readonly checks?: readonly HealthCheck[];
}

/**
 * Keeps the process alive until SIGINT or SIGTERM, then stops the services in reverse start order,
 * so that front doors close before the things they feed. A stop that takes longer than `deadlineMs`
 * (SHUTDOWN_TIMEOUT_SECONDS) ends the process with code 1: the supervisor's kill would come anyway.
 */
export function runUntilSignal(
  services: Service[],
  log: Logger,
  options: { onSignal?: () => void; deadlineMs?: number } = {},
): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      // Readiness answers 503 from now on (health.ts), while the services finish their work.
      options.onSignal?.();
      log.info({ signal }, 'shutting down');
      exitAfter(options.deadlineMs, log);
      for (const service of [...services].reverse()) {
        try {
          await service.stop();
        } catch (err) {
          log.error({ err, service: service.name }, 'service did not stop cleanly');
        }
      }
      resolve();
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
}

/** Exits with code 1 if the process is still stopping after `deadlineMs`. */
export function exitAfter(deadlineMs: number | undefined, log: Pick<Logger, 'error'>): void {
  if (deadlineMs === undefined) return;
  setTimeout(() => {
    log.error({ deadlineMs }, 'shutdown took longer than SHUTDOWN_TIMEOUT_SECONDS, exiting');
    process.exit(1);
  }, deadlineMs).unref();
}
