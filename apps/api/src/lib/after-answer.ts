/**
 * Work a handler leaves for after its answer, such as a reset mail: the answer then takes the same time
 * whatever the work finds (issue #28, account enumeration by timing). Failures are logged, since nobody
 * awaits them; the app's close and the tests wait for what is still running.
 */
interface AfterAnswerLog {
  error(details: object, message: string): void;
}

export class AfterAnswer {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: AfterAnswerLog) {}

  /** Starts `work` on the next turn of the event loop, after the current handler has answered. */
  run(what: string, work: () => Promise<void>): void {
    const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((err: unknown) => this.log.error({ err }, `${what} failed`))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Resolves once nothing started by `run` is running (including work started meanwhile). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
