/**
 * Runs an action per scope at most once per window, on the leading edge and, when asked again within the
 * window, once more at its end: a lone announcement acts at once, a stream of them acts once per window.
 * The device lists use it for the database's change announcements (plugins/answer-cache.ts): a reporting
 * fleet updates its latest values with every storage-writer batch, which would otherwise drop the company's
 * lists several times a second, so that almost no read came from memory.
 */
export class ScopeThrottle {
  private readonly windows = new Map<string, { timer: NodeJS.Timeout; again: boolean }>();

  constructor(
    private readonly windowMs: number,
    private readonly action: (scope: string) => void,
  ) {}

  request(scope: string): void {
    if (this.windowMs <= 0) {
      this.action(scope);
      return;
    }
    const open = this.windows.get(scope);
    if (open) {
      open.again = true;
      return;
    }
    this.action(scope);
    this.openWindow(scope);
  }

  /** Drops the pending trailing actions (the listener is going away). */
  close(): void {
    for (const { timer } of this.windows.values()) clearTimeout(timer);
    this.windows.clear();
  }

  private openWindow(scope: string): void {
    const window = {
      again: false,
      timer: setTimeout(() => {
        this.windows.delete(scope);
        if (!window.again) return;
        this.action(scope);
        this.openWindow(scope);
      }, this.windowMs),
    };
    window.timer.unref();
    this.windows.set(scope, window);
  }
}
