import { forEachDb } from '@iot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice, type SeededDevice } from '../test-support/seed.js';
import { startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

forEachDb(
  (suite) => {
    describe('HTTP auth and ACL backend for an external broker', () => {
      let ingest: TestIngest;
      let device: SeededDevice;
      let disposed: SeededDevice;
      beforeAll(async () => {
        ingest = await startTestIngest(suite.db);
        const company = await createCompany(suite.db);
        device = await createDevice(suite.db, company);
        disposed = await createDevice(suite.db, company, { state: 'disposed' });
      });
      afterAll(async () => ingest.stop());

      const call = async (path: string, body: unknown) => {
        const res = await fetch(`${ingest.url}/mqtt/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return [res.status, ((await res.json()) as { result: string }).result];
      };

      it.each([
        ['its own token', () => ({ username: device.uuid, password: device.token }), 200, 'allow'],
        ['a wrong token', () => ({ username: device.uuid, password: 'x' }), 403, 'deny'],
        ['an unknown uuid', () => ({ username: crypto.randomUUID(), password: device.token }), 403, 'deny'],
        ['a username that is no uuid', () => ({ username: 'admin', password: 'admin' }), 403, 'deny'],
        ['a disposed device', () => ({ username: disposed.uuid, password: disposed.token }), 403, 'deny'],
      ])('authenticates a device with %s', async (_name, body, status, result) => {
        expect(await call('auth', { ...body(), clientid: 'c1' })).toEqual([status, result]);
      });

      it.each([
        ['EMQX publish to its own up topic', 'own-up', 'publish', 200],
        ['EMQX publish to another up topic', 'other-up', 'publish', 403],
        ['EMQX subscribe to its own down topic', 'own-down', 'subscribe', 200],
        ['EMQX subscribe to another down topic', 'other-down', 'subscribe', 403],
        ['EMQX subscribe to its own up topic', 'own-up', 'subscribe', 403],
        ['go-auth write (acc 2) to its own up topic', 'own-up', 2, 200],
        ['go-auth read (acc 1) of its own down topic', 'own-down', 1, 200],
        ['go-auth subscribe (acc 4) to a wildcard', 'wildcard', 4, 403],
      ])('%s', async (_name, which, action, status) => {
        const other = crypto.randomUUID();
        const topic = {
          'own-up': `devices/${device.uuid}/up`,
          'other-up': `devices/${other}/up`,
          'own-down': `devices/${device.uuid}/down`,
          'other-down': `devices/${other}/down`,
          wildcard: 'devices/+/down',
        }[which];
        const key = typeof action === 'number' ? 'acc' : 'action';
        const [got] = await call('acl', { username: device.uuid, clientid: 'c1', topic, [key]: action });
        expect(got).toBe(status);
      });
    });
  },
  { kinds: ['pglite'] },
);
