/**
 * The suites talk to the machine's real services. When one is down, say so here, once and loudly,
 * instead of letting dozens of tests fail with connection errors. .ci/run starts them when they are down.
 */
import { Socket } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

/** Opens a TCP connection, writes `hello` (if any) and resolves with the first bytes the server sends. */
function firstBytes(port: number, hello?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer on 127.0.0.1:${port} within 3 s`));
    }, 3000);
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot reach 127.0.0.1:${port}: ${err.message}`));
    });
    socket.once('data', (data) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(data);
    });
    socket.connect(port, '127.0.0.1', () => {
      if (hello) socket.write(hello);
    });
  });
}

// MQTT 3.1.1 CONNECT with client id "svc-check", clean session, keep-alive 10 s.
const mqttConnect = Buffer.from([
  0x10,
  0x15,
  0x00,
  0x04,
  0x4d,
  0x51,
  0x54,
  0x54,
  0x04,
  0x02,
  0x00,
  0x0a,
  0x00,
  0x09,
  ...Buffer.from('svc-check'),
]);

describe('machine services the tests rely on', () => {
  it('PostgreSQL answers on 127.0.0.1:5432', async () => {
    const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await client.connect();
    const { rows } = await client.query<{ one: number }>('SELECT 1 AS one');
    await client.end();
    expect(rows[0]?.one).toBe(1);
  });

  it('Redis answers PING on 127.0.0.1:6379', async () => {
    const reply = await firstBytes(6379, Buffer.from('PING\r\n'));
    expect(reply.toString()).toBe('+PONG\r\n');
  });

  it('Mosquitto accepts an MQTT connection on 127.0.0.1:1883', async () => {
    const reply = await firstBytes(1883, mqttConnect);
    // CONNACK (0x20), remaining length 2, return code 0 = accepted
    expect([...reply.subarray(0, 4)]).toEqual([0x20, 0x02, 0x00, 0x00]);
  });

  it('NATS greets with INFO on 127.0.0.1:4222 and has JetStream on', async () => {
    const reply = (await firstBytes(4222)).toString();
    expect(reply.startsWith('INFO ')).toBe(true);
    const info = JSON.parse(reply.slice(5).trim()) as { jetstream?: boolean };
    expect(info.jetstream).toBe(true);
  });
});
