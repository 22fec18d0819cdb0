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
 * so that front doors close before the things they feed.
 */
export function runUntilSignal(
  services: Service[],
  log: Logger,
  options: { onSignal?: () => void } = {},
): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      // Readiness answers 503 from now on (health.ts), while the services finish their work.
      options.onSignal?.();
      log.info({ signal }, 'shutting down');
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
