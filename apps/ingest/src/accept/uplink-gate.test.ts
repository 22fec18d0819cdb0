/**
 * A blocked or deleted company's uplinks are refused at the front door, with the reason, counted, and
 * with nothing written; unblocking takes them again. A company over its uplinks per minute gets 429
 * with Retry-After (issue #27).
 */
import { forEachDb } from '@iot/db/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice, createIntegrationToken } from '../test-support/seed.js';
import { drained, eventually, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';
import { UplinkGate } from './uplink-gate.js';

describe('UplinkGate', () => {
  it('counts a company per minute and starts again with the next minute', () => {
    let now = 60_000 * 1000 + 5_000;
    const gate = new UplinkGate(pino({ level: 'silent' }), () => now);
    const company = { id: 7, refusal: null, uplinksPerMinute: 2 };
    expect([gate.admit(7, company), gate.admit(7, company), gate.admit(7, company)]).toEqual([
      null,
      null,
      'rate_limited',
    ]);
    // Another company has its own count.
    expect(gate.admit(8, { ...company, id: 8 })).toBeNull();
    expect(gate.retryAfterSeconds()).toBe(55);
    now += 55_000;
    expect(gate.admit(7, company)).toBeNull();
    expect(gate.admit(7, { ...company, refusal: 'blocked' })).toBe('company_blocked');
    expect(gate.admit(7, null)).toBe('company_deleted');
  });
});

forEachDb((suite) => {
  describe('company gate at the HTTP front door', () => {
    let ingest: TestIngest;
    beforeAll(async () => {
      ingest = await startTestIngest(suite.db);
    });
    afterAll(async () => ingest.stop());

    const post = (uuid: string, token: string, body: Record<string, unknown>) =>
      fetch(`${ingest.url}/uplinks/${uuid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const stored = async (deviceId: number) =>
      (await suite.db.query('SELECT 1 FROM device_data WHERE device_id = $1', [deviceId])).rows.length;
    const setCompany = async (companyId: number, set: string) => {
      await suite.db.query(`UPDATE companies SET ${set} WHERE id = $1`, [companyId]);
      // The database announces the change (migration 0038); without LISTEN the API's direct call does it.
      if (!suite.db.listen) ingest.service.invalidateCompany(companyId);
    };

    it('refuses a blocked company with 75 and the reason, writes nothing, counts it; unblocked it sends', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      const http = await createIntegrationToken(suite.db, company, 'http');
      expect((await post(device.uuid, device.token, { temperature: 1 })).status).toBe(202);
      await drained(ingest.service);
      expect(await stored(device.id)).toBe(1);

      await setCompany(company, 'blocked = true');
      // Until the change notice arrives (PostgreSQL's LISTEN), a post may still be taken and stored.
      let takenBeforeTheNotice = 0;
      const refused = await eventually(async () => {
        const res = await post(device.uuid, device.token, { temperature: 2 });
        if (res.status === 202) takenBeforeTheNotice += 1;
        return res.status === 403 ? res : null;
      });
      expect(refused).not.toBeNull();
      expect(await refused!.json()).toMatchObject({ code: 75, details: { reason: 'company_blocked' } });
      // The company's integration token is refused too, and its last use is not written.
      const before = await suite.db.query(
        'SELECT last_used_at FROM integration_tokens WHERE company_id = $1',
        [company],
      );
      const viaToken = await fetch(`${ingest.url}/uplinks/${device.uuid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-integration-token': http },
        body: JSON.stringify({ temperature: 3 }),
      });
      expect(viaToken.status).toBe(403);
      const after = await suite.db.query(
        'SELECT last_used_at FROM integration_tokens WHERE company_id = $1',
        [company],
      );
      expect(after.rows).toEqual(before.rows);
      await drained(ingest.service);
      expect(await stored(device.id)).toBe(1 + takenBeforeTheNotice);
      expect(ingest.service.gateStats.byCompany.get(company)?.company_blocked).toBeGreaterThanOrEqual(2);
      expect(
        ingest.lines.some(
          (l) => l.reason === 'company_blocked' && l.companyId === company && l.deviceId === device.id,
        ),
      ).toBe(true);

      await setCompany(company, 'blocked = false');
      const again = await eventually(async () => {
        const res = await post(device.uuid, device.token, { temperature: 4 });
        return res.status === 202 ? res : null;
      });
      expect(again).not.toBeNull();
      await drained(ingest.service);
      expect(await stored(device.id)).toBe(2 + takenBeforeTheNotice);
    });

    it('refuses a deleted company', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      expect((await post(device.uuid, device.token, { temperature: 1 })).status).toBe(202);
      await setCompany(company, 'deleted_at = now()');
      const refused = await eventually(async () => {
        const res = await post(device.uuid, device.token, { temperature: 2 });
        return res.status === 403 ? res : null;
      });
      expect(await refused!.json()).toMatchObject({ code: 75, details: { reason: 'company_deleted' } });
    });

    it('refuses a ChirpStack uplink of a blocked company before anything is written', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company, { devEui: '0011223344556677' });
      const token = await createIntegrationToken(suite.db, company, 'chirpstack');
      await setCompany(company, 'blocked = true');
      const res = await fetch(`${ingest.url}/chirpstack?event=up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ deviceInfo: { devEui: '0011223344556677' }, object: { temperature: 5 } }),
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: number }).code).toBe(75);
      await drained(ingest.service);
      expect(await stored(device.id)).toBe(0);
    });

    it('answers 429 with Retry-After beyond the uplinks per minute, and stores only the allowed ones', async () => {
      const company = await createCompany(suite.db);
      await setCompany(company, `limits = '{"max_uplinks_per_minute": 3}'`);
      const device = await createDevice(suite.db, company);
      const statuses: number[] = [];
      let limited: Response | undefined;
      for (let i = 0; i < 5; i++) {
        const res = await post(device.uuid, device.token, { temperature: i });
        statuses.push(res.status);
        if (res.status === 429) limited = res;
      }
      // A new minute may start during the loop: then a fourth passes. Never more than 3 per minute.
      expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(3);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
      expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await limited!.json()) as { code: number }).code).toBe(90044);
      await drained(ingest.service);
      expect(await stored(device.id)).toBe(statuses.filter((s) => s === 202).length);
      expect(ingest.service.gateStats.refused.rate_limited).toBeGreaterThanOrEqual(1);
    });
  });
});
