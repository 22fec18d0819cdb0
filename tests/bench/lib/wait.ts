/** Waiting helpers shared by the bench scripts. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` every 20 ms until it holds (true) or `timeoutMs` passed (false). */
export async function waitUntil(cond: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (await cond()) return true;
    await sleep(20);
  }
  return false;
}
