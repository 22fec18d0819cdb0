/**
 * Issue #28, finding 1: unauthenticated clients must not be able to fill the embedded broker's memory. A
 * CONNECT that announces 200 MB used to be buffered whole until the 30 s connect time-out.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestContext } from '../accept/ingest-context.js';
import { type EmbeddedBroker, type MqttLimits, startEmbeddedBroker } from './mqtt-embedded.js';

const MB = 1024 * 1024;
const lines: { msg?: string }[] = [];
// Unauthenticated clients never reach the device directory: a log is all the broker needs here.
const ctx = {
  log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
} as unknown as IngestContext;

const limits: MqttLimits = {
  connectTimeoutMs: 300,
  maxConnections: 4,
  maxConnectionsPerAddress: 3,
  exemptLoopback: false,
};

/** The fixed header of a CONNECT packet announcing `length` bytes (MQTT variable-length integer). */
function connectHeader(length: number): Buffer {
  const bytes = [0x10];
  let rest = length;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}

interface Attacker {
  socket: Socket;
  closed: Promise<void>;
  isClosed: () => boolean;
}

async function open(port: number, localAddress = '127.0.0.1'): Promise<Attacker> {
  const socket = connectTcp({ port, host: '127.0.0.1', localAddress });
  socket.on('error', () => {});
  let closed = false;
  const done = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void done.then(() => {
    closed = true;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed: done, isClosed: () => closed };
}

/** Streams up to `total` bytes of one reused chunk, as fast as the socket takes them, until it closes. */
async function stream(attacker: Attacker, total: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  while (sent < total && !attacker.isClosed() && !attacker.socket.destroyed) {
    sent += chunk.length;
    if (!attacker.socket.write(chunk))
      await Promise.race([new Promise((resolve) => attacker.socket.once('drain', resolve)), attacker.closed]);
  }
  return sent;
}

const within = (ms: number, promise: Promise<void>) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, ms, false))]);

describe('embedded MQTT broker under an unauthenticated flood', () => {
  let broker: EmbeddedBroker | undefined;
  const attackers: Attacker[] = [];
  afterEach(async () => {
    for (const attacker of attackers.splice(0)) attacker.socket.destroy();
    await broker?.close();
    broker = undefined;
  });
  const start = async (overrides: Partial<MqttLimits> = {}) => {
    broker = await startEmbeddedBroker({
      ctx,
      port: 0,
      host: '127.0.0.1',
      limits: { ...limits, ...overrides },
    });
    return broker.port;
  };

  it('closes connections announcing a 200 MB CONNECT at once; memory stays bounded', async () => {
    const port = await start({ maxConnections: 100, maxConnectionsPerAddress: 100 });
    global.gc?.();
    const before = process.memoryUsage();
    const opened = await Promise.all(Array.from({ length: 4 }, () => open(port)));
    attackers.push(...opened);
    for (const attacker of opened) attacker.socket.write(connectHeader(200_000_000));
    const sent = await Promise.all(opened.map((attacker) => stream(attacker, 50 * MB)));
    const after = process.memoryUsage();
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(32 * MB);
    expect(after.rss - before.rss).toBeLessThan(100 * MB);
    // Each stops once the kernel's socket buffers are full and the server's reset arrives.
    for (const bytes of sent) expect(bytes).toBeLessThan(16 * MB);
    for (const attacker of opened) expect(await within(2000, attacker.closed)).toBe(true);
  });

  it('closes a connection that sends no CONNECT within the connect time-out', async () => {
    const port = await start();
    const silent = await open(port);
    attackers.push(silent);
    expect(await within(2000, silent.closed)).toBe(true);
  });

  it('closes a connection whose bytes before authentication exceed the CONNECT budget', async () => {
    const port = await start({ connectTimeoutMs: 10_000 });
    const trickler = await open(port);
    attackers.push(trickler);
    // 60,000 bytes would pass as an uplink, but a device's CONNECT (uuid, token) needs far less.
    trickler.socket.write(connectHeader(60_000));
    trickler.socket.write(Buffer.alloc(20 * 1024, 0x61));
    expect(await within(2000, trickler.closed)).toBe(true);
  });

  it('refuses connections beyond the cap per address and in total', async () => {
    const port = await start({ connectTimeoutMs: 10_000 });
    const first: Attacker[] = [];
    // One after the other, so that the server sees them in this order.
    for (let i = 0; i < 4; i++) first.push(await open(port, '127.0.0.1'));
    attackers.push(...first);
    const fourth = first[3] as Attacker;
    expect(await within(1000, fourth.closed)).toBe(true); // the 4th from 127.0.0.1 (cap 3)
    for (const attacker of first.slice(0, 3)) expect(attacker.isClosed()).toBe(false);
    const others = [await open(port, '127.0.0.2'), await open(port, '127.0.0.2')];
    attackers.push(...others);
    // 3 + 1 from 127.0.0.2 reach the total of 4; the next is refused.
    expect(await within(1000, (others[1] as Attacker).closed)).toBe(true);
    expect((others[0] as Attacker).isClosed()).toBe(false);
    expect(lines.some((line) => line.msg === 'mqtt connection refused: too many connections')).toBe(true);
  });
});
