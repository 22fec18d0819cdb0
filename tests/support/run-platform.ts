/**
 * Starts the built platform (`apps/platform/dist/main.js`, what `npm start` runs) as a child process on free
 * ports with its own data directory, and waits for its banner.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PLATFORM_MAIN = fileURLToPath(new URL('../../apps/platform/dist/main.js', import.meta.url));

export interface PlatformProcess {
  url: string;
  output: () => string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop: () => Promise<number | null>;
  child: ChildProcess;
}

export async function runPlatform(
  env: Record<string, string>,
  timeoutMs = 90_000,
  nodeFlags: string[] = [],
): Promise<PlatformProcess> {
  const child = spawn(process.execPath, [...nodeFlags, PLATFORM_MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', MQTT_PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`platform did not start in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const check = () => {
      const match = /Console and API:\s+(\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`platform exited with ${code} before it was ready:\n${output}`));
    });
  });

  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
