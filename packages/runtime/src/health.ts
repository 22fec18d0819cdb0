/**
 * Liveness and readiness of a process (issue #29): `live` says the process runs; `ready` runs every check
 * (database, broker, event log, queue, migrations) with a deadline and answers each one's state and latency.
 * A process that drains (SIGTERM) is not ready whatever its checks say, so a load balancer stops sending.
 */

export interface HealthCheck {
  name: string;
  /** Resolves when the dependency works; rejects (or outlasts the deadline) when it does not. */
  check: () => Promise<void>;
}

export interface CheckState {
  ok: boolean;
  latency_ms: number;
  error?: string;
}

export interface Readiness {
  status: 'ready' | 'not_ready';
  draining: boolean;
  checks: Record<string, CheckState>;
}

const CHECK_DEADLINE_MS = 2_000;

export class Health {
  private readonly checks: HealthCheck[] = [];
  private drainingSince: number | undefined;

  add(...checks: HealthCheck[]): this {
    this.checks.push(...checks);
    return this;
  }

  /** From now on the process is not ready (SIGTERM: finishing in-flight work before it exits). */
  drain(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  async ready(): Promise<Readiness> {
    const results = await Promise.all(
      this.checks.map(async ({ name, check }): Promise<[string, CheckState]> => {
        const started = performance.now();
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            check(),
            new Promise((_, reject) => {
              timer = setTimeout(
                () => reject(new Error(`no answer within ${CHECK_DEADLINE_MS} ms`)),
                CHECK_DEADLINE_MS,
              );
            }),
          ]);
          return [name, { ok: true, latency_ms: elapsed(started) }];
        } catch (error) {
          return [name, { ok: false, latency_ms: elapsed(started), error: (error as Error).message }];
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const checks = Object.fromEntries(results);
    const ok = !this.draining && results.every(([, state]) => state.ok);
    return { status: ok ? 'ready' : 'not_ready', draining: this.draining, checks };
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
