/**
 * Health of a worker app's process (ingest, rules worker, notifier): a Health whose readiness fails until
 * `started()` and after SIGTERM, served on HEALTH_PORT when that is set.
 */
import { Health, type HealthCheck } from './health.js';
import { startHealthServer } from './health-http.js';
import type { Logger } from './logger.js';
import type { Service } from './service.js';

export interface ProcessHealth {
  health: Health;
  /** The health server as a service (stop it last: list it first), when HEALTH_PORT is set. */
  service: (Service & { url: string }) | undefined;
  /** The app is up: add its checks; readiness now depends on them. */
  started: (checks: readonly HealthCheck[]) => void;
}

export async function startProcessHealth(options: {
  port: number | undefined;
  host: string;
  metricsToken: string | undefined;
  log: Logger;
}): Promise<ProcessHealth> {
  let up = false;
  const health = new Health().add({
    name: 'started',
    check: async () => {
      if (!up) throw new Error('still starting');
    },
  });
  const service =
    options.port === undefined
      ? undefined
      : await startHealthServer({
          port: options.port,
          host: options.host,
          health,
          metricsToken: options.metricsToken,
          log: options.log,
        });
  return {
    health,
    service,
    started: (checks) => {
      health.add(...checks);
      up = true;
    },
  };
}
