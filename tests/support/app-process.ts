/**
 * One app of the distributed profile as its own process, started as the README's "Distributed profile"
 * section does (`node apps/<app>/dist/main.js` with the environment), its output kept for assertions.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait-for.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface AppProcess {
  name: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Waits until the output matches `pattern`. */
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
  /** SIGTERM; resolves with the exit code. */
  stop: () => Promise<number | null>;
}

export function startApp(
  name: string,
  args: string[],
  env: Record<string, string>,
  command = process.execPath,
): AppProcess {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (c) => {
      code = c;
      resolve(c);
    }),
  );
  return {
    name,
    child,
    output: () => output,
    exited,
    waitForOutput: (pattern, timeoutMs = 60_000) =>
      waitFor(`${name}: ${pattern}`, timeoutMs, async () => {
        const match = pattern.exec(output);
        if (match) return match;
        if (code !== undefined) throw new Error(`${name} exited with ${code}:\n${output}`);
        return undefined;
      }),
    stop: async () => {
      if (code === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}
