/** A Mosquitto for a bench run, started with the shipped configuration on a free loopback port. */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { waitUntil } from './wait.js';

const MOSQUITTO_CONF = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../infra/mosquitto/mosquitto.conf',
);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Mosquitto with the shipped infra/mosquitto/mosquitto.conf, on a free loopback port and with its
 * persistence in a temporary directory (writable by the user Mosquitto drops to).
 */
export async function startOwnMosquitto(): Promise<{
  url: string;
  pid: number;
  stop: () => Promise<void>;
  restart: () => Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'iot-bench-mosquitto-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const conf = readFileSync(MOSQUITTO_CONF, 'utf8')
    .replace(/^persistence_location .*$/m, `persistence_location ${dir}/`)
    .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`);
  writeFileSync(join(dir, 'mosquitto.conf'), conf);
  const url = `mqtt://127.0.0.1:${port}`;
  const launch = async () => {
    const child: ChildProcess = spawn('/usr/sbin/mosquitto', ['-c', join(dir, 'mosquitto.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const up = await waitUntil(async () => {
      try {
        const probe = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 500 });
        await probe.endAsync();
        return true;
      } catch {
        return false;
      }
    }, 5000);
    if (!up) throw new Error(`own Mosquitto did not start: ${stderr}`);
    return child;
  };
  const halt = async (child: ChildProcess) => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  let child = await launch();
  return {
    url,
    get pid() {
      return child.pid ?? 0;
    },
    stop: async () => {
      await halt(child);
      rmSync(dir, { recursive: true, force: true });
    },
    /** SIGTERM (Mosquitto saves its persistence) and a start on the same port and data. */
    restart: async () => {
      await halt(child);
      child = await launch();
    },
  };
}
