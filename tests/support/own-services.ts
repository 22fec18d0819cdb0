/**
 * A NATS JetStream, a Redis and a Mosquitto of the test's own, on free loopback ports, for tests that run
 * the apps as an operator does: with their default stream names, queue prefix and share group, which
 * would collide with other suites on the machine's shared servers. The same binaries as the machine's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startOwnMosquitto } from '../bench/lib/mosquitto.js';
import { waitFor } from './wait-for.js';

export interface OwnService {
  url: string;
  stop: () => Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function startBinary(
  what: string,
  command: string,
  args: (port: number, dir: string) => string[],
  url: (port: number) => string,
): Promise<OwnService> {
  const dir = mkdtempSync(join(tmpdir(), `iot-test-${what}-`));
  const port = await freePort();
  const child: ChildProcess = spawn(command, args(port, dir), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await waitFor(`${what} on port ${port} (${stderr})`, 10_000, async () =>
    (await portOpen(port)) ? true : undefined,
  );
  return {
    url: url(port),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function startOwnNats(): Promise<OwnService> {
  return startBinary(
    'nats',
    '/usr/sbin/nats-server',
    (port, dir) => ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir],
    (port) => `nats://127.0.0.1:${port}`,
  );
}

export function startOwnRedis(): Promise<OwnService> {
  return startBinary(
    'redis',
    '/usr/bin/redis-server',
    (port, dir) => ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir],
    (port) => `redis://127.0.0.1:${port}`,
  );
}

export { freePort, startOwnMosquitto };
