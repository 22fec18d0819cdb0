/**
 * A one-waiter wake-up flag: `wake()` before `wait()` is remembered, so a wake between a check and
 * the following wait is never lost (the pump loops rely on that instead of polling).
 */
export class Wakeup {
  private resolve: (() => void) | undefined;
  private pending = false;

  wake(): void {
    const resolve = this.resolve;
    if (resolve) {
      this.resolve = undefined;
      resolve();
    } else {
      this.pending = true;
    }
  }

  /** Resolves on the next wake, or after `ms` when given. */
  wait(ms?: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        this.resolve = undefined;
        resolve();
      };
      this.resolve = done;
      if (ms !== undefined) timer = setTimeout(done, ms);
    });
  }
}
