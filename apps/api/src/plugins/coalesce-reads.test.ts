/**
 * Identical reads in flight share one answer (issue #29): ten concurrent polls of the device list cost
 * fewer than ten queries and all get the same answer, a compressed one only where it is accepted; a read
 * arriving after a change made through the API never joins a read begun before it.
 */
import { brotliDecompressSync } from 'node:zlib';
import type { Db } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp } from '../test/app';
import { TestClient } from '../test/client';
import { createDevice } from '../test/device-fixtures';
import { createTeam, PASSWORD } from '../test/fixtures';

// How long identical reads are held in flight so all of them reach the coalescer before the first answers.
const HOLD_MS = 400;
const holdOn = () => new Promise((resolve) => setTimeout(resolve, HOLD_MS));

forEachDb((suite) => {
  let app: FastifyInstance;
  let transactions = 0;
  // While set, transactions wait for it (all, or only the first when `holdOne`): reads stay in flight.
  let gate: Promise<void> | null = null;
  let holdOne = false;

  beforeAll(async () => {
    const db = suite.db;
    const counted: Db = Object.create(db);
    counted.transaction = async (fn, options) => {
      transactions++;
      const wait = gate;
      if (holdOne) gate = null;
      if (wait) await wait;
      return db.transaction(fn, options);
    };
    // Sessions from memory: ten session lookups on a busy machine must not outlast HOLD_MS.
    app = buildTestApp(counted, { session: { cacheSeconds: 60 } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function team() {
    const { company, main } = await createTeam(suite.db);
    const device = await createDevice(suite.db, company.id, { name: 'Kühlraum 1' });
    const client = new TestClient(app);
    await client.login(main.email, PASSWORD);
    return { client, device, companyId: company.id };
  }

  function held(one = false) {
    let open: () => void = () => {};
    holdOne = one;
    gate = new Promise((resolve) => {
      open = () => {
        gate = null;
        resolve();
      };
    });
    return open;
  }

  it('answers identical concurrent reads of one user with one query', async () => {
    const { client } = await team();
    const open = held();
    transactions = 0;
    const answers = Promise.all(Array.from({ length: 10 }, () => client.get('/api/v1/core/devices')));
    await holdOn();
    open();
    const all = await answers;
    expect(all.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(all.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(transactions).toBe(1);
  });

  it('shares a compressed answer only with reads that accept its encoding', async () => {
    const { client, companyId } = await team();
    for (let i = 0; i < 20; i++) await createDevice(suite.db, companyId, { name: `Sensor ${i}` });
    const read = (encoding?: string) =>
      app.inject({
        method: 'GET',
        url: '/api/v1/core/devices',
        headers: { cookie: client.cookieHeader(), ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
    const open = held();
    transactions = 0;
    const answers = Promise.all(Array.from({ length: 6 }, (_, i) => read(i % 2 ? 'br' : undefined)));
    await holdOn();
    open();
    const all = await answers;
    expect(transactions).toBe(2);
    const bodies = all.map((a, i) => {
      expect(a.statusCode).toBe(200);
      expect(a.headers['content-encoding']).toBe(i % 2 ? 'br' : undefined);
      return i % 2 ? brotliDecompressSync(a.rawPayload).toString() : a.body;
    });
    expect(new Set(bodies).size).toBe(1);
  });

  it('does not share a read begun before a change with a read after it', async () => {
    const { client, device } = await team();
    // The read before the change stays in flight until the read after it has its answer.
    const open = held(true);
    const before = client.get<{ payload: { id: number; name: string }[] }>('/api/v1/core/devices');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const renamed = await client.put(`/api/v1/core/devices/${device.id}`, { name: 'Kühlraum 2' });
    expect(renamed.status).toBe(200);
    const after = await client.get<{ payload: { id: number; name: string }[] }>('/api/v1/core/devices');
    open();
    expect(after.body.payload.find((d) => d.id === device.id)?.name).toBe('Kühlraum 2');
    expect((await before).status).toBe(200);
  });
});
