/**
 * A NATS JetStream, a Redis, a Mosquitto and a PostgreSQL of the test's own, on free loopback ports, for
 * tests that run the apps as an operator does: with their default stream names, queue prefix and share
 * group, which would collide with other suites on the machine's shared servers, and for fault tests that
 * restart a server (the suites beside them keep theirs). The same binaries as the machine's.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startOwnMosquitto } from '../bench/lib/mosquitto.js';
import { waitFor } from './wait-for.js';

export interface OwnService {
  url: string;
  stop: () => Promise<void>;
  /** Stops the server (SIGTERM, as an orderly restart does) and starts it again on its port and data. */
  restart: () => Promise<void>;
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
  const launch = async () => {
    const child: ChildProcess = spawn(command, args(port, dir), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await waitFor(`${what} on port ${port} (${stderr})`, 10_000, async () =>
      (await portOpen(port)) ? true : undefined,
    );
    return async () => {
      child.kill('SIGTERM');
      await exited;
    };
  };
  let halt = await launch();
  return {
    url: url(port),
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
    restart: async () => {
      await halt();
      halt = await launch();
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
    // Appendonly, as a Redis holding a job queue should run: a restart keeps the queued jobs.
    (port, dir) => [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'yes',
      '--dir',
      dir,
    ],
    (port) => `redis://127.0.0.1:${port}`,
  );
}

const PG_BIN = '/usr/lib/postgresql';

/** pg_ctl and friends of the newest PostgreSQL installed, run as the postgres user (initdb refuses root). */
function pgTool(tool: string, args: string[]): void {
  const version = readdirSync(PG_BIN).sort((a, b) => Number(b) - Number(a))[0];
  const path = join(PG_BIN, version ?? '', 'bin', tool);
  const asPostgres = process.getuid?.() === 0;
  execFileSync(asPostgres ? 'runuser' : path, asPostgres ? ['-u', 'postgres', '--', path, ...args] : args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/**
 * A PostgreSQL cluster of its own (initdb in a temporary directory, trust auth, user postgres, fsync off:
 * a test's data need not survive the machine) on a free loopback port; `url` is its maintenance database,
 * the adminUrl for createTestDb. `restart` is `pg_ctl restart -m fast`, as `pg_ctlcluster ... restart`.
 */
export async function startOwnPostgres(): Promise<OwnService> {
  const dir = mkdtempSync(join(tmpdir(), 'iot-test-postgres-'));
  if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  const data = join(dir, 'data');
  const port = await freePort();
  pgTool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const pgCtl = (...args: string[]) => pgTool('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', ...args]);
  pgCtl('-o', options, 'start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      pgCtl('-m', 'immediate', 'stop');
      rmSync(dir, { recursive: true, force: true });
    },
    restart: async () => pgCtl('-m', 'fast', 'restart'),
  };
}

export { freePort, startOwnMosquitto };
