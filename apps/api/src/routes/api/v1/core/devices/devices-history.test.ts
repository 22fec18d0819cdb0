import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import {
  createDevice,
  insertData,
  insertLog,
  insertNotification,
  insertRule,
} from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { HOUR, useDevicesSuite } from './devices-test-setup';

forEachDb((suite) => {
  const { signIn } = useDevicesSuite(suite);

  describe('logs, battery and mobile data', () => {
    it('lists logs newest first with level names, filtered by level, period and limit', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id);
      const t0 = Date.parse('2026-03-01T00:00:00Z');
      // Levels 0..7 one minute apart; 0 and 1 are shown as critical, 7 wraps to emergency (spec section 3).
      for (let level = 0; level <= 7; level += 1) {
        await insertLog(
          suite.db,
          team.company.id,
          device.id,
          level,
          `level ${level}`,
          new Date(t0 + level * 60_000),
        );
      }
      const client = await signIn(team.plain.email);
      const all = await client.get(`/api/v1/core/devices/${device.id}/logs`);
      expect(all.status).toBe(200);
      expect(
        all.body.payload.map((l: { level: number; level_name: string }) => [l.level, l.level_name]),
      ).toEqual([
        [7, 'emergency'],
        [6, 'debug'],
        [5, 'info'],
        [4, 'warning'],
        [3, 'error'],
        [2, 'critical'],
        [1, 'critical'],
        [0, 'critical'],
      ]);
      const levels = async (query: string) =>
        (await client.get(`/api/v1/core/devices/${device.id}/logs?${query}`)).body.payload.map(
          (l: { level: number }) => l.level,
        );
      expect(await levels('level=critical')).toEqual([2, 1, 0]);
      expect(await levels('level=4')).toEqual([4]);
      expect(await levels('limit=2')).toEqual([7, 6]);
      expect(await levels(`tsstart=${t0 + 60_000}&tsend=${new Date(t0 + 3 * 60_000).toISOString()}`)).toEqual(
        [3, 2, 1],
      );
      const bad = await client.get(`/api/v1/core/devices/${device.id}/logs?level=loud`);
      expect([bad.status, bad.body.code]).toEqual([422, 422]);
      const badPeriod = await client.get(`/api/v1/core/devices/${device.id}/logs?tsstart=yesterday`);
      expect([badPeriod.status, badPeriod.body.code]).toEqual([422, 10002]);
    });

    it('answers battery history and mobile data from the device data', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id, { mobile_data_volume: 123_456 });
      const t0 = Date.parse('2026-03-01T00:00:00Z');
      await insertData(suite.db, team.company.id, device.id, [
        { at: new Date(t0), data: { battery_level: 90, battery_voltage: 3.6, temperature: 20 } },
        { at: new Date(t0 + HOUR), data: { battery_level: 89, mobile_data_volume: 1000 } },
        { at: new Date(t0 + 2 * HOUR), data: { mobile_data_volume: 2500 } },
      ]);
      const client = await signIn(team.plain.email);
      const period = `tsstart=${t0}&tsend=${t0 + 3 * HOUR}`;
      const battery = await client.get(`/api/v1/core/devices/${device.id}/battery?${period}`);
      expect(battery.status).toBe(200);
      expect(battery.body.payload.points.map((p: { data: unknown }) => p.data)).toEqual([
        { battery_level: 90, battery_voltage: 3.6 },
        { battery_level: 89 },
        {},
      ]);
      const mobile = await client.get(`/api/v1/core/devices/${device.id}/mobile-data?${period}`);
      expect(mobile.body.payload.mobile_data_volume).toBe(123_456);
      expect(mobile.body.payload.history.points.map((p: { data: unknown }) => p.data)).toEqual([
        {},
        { mobile_data_volume: 1000 },
        { mobile_data_volume: 2500 },
      ]);
    });
  });

  describe('notifications', () => {
    it("lists what the device's rules sent, newest first, filtered by status, period and limit", async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id, { name: 'Cold store' });
      const neighbour = await createDevice(suite.db, team.company.id, { name: 'Neighbour' });
      const ruleId = await insertRule(suite.db, team.company.id, device.id, 'Too warm');
      const goneRuleId = await insertRule(suite.db, team.company.id, device.id, 'Deleted later');
      const t0 = Date.parse('2026-03-01T00:00:00Z');
      const at = (minutes: number) => new Date(t0 + minutes * 60_000);
      const base = { companyId: team.company.id, deviceId: device.id, ruleId };
      // As the notifier writes them: a mail kept in the outbox, an SMS that failed, was retried and sent,
      // a webhook refused for good, a system message, and an entry of a rule deleted since.
      await insertNotification(suite.db, {
        ...base,
        channel: 'email',
        recipient: 'alerts@example.test',
        status: 'queued',
        details: { attempt: 1, maxAttempts: 5, via: 'outbox', cc: [] },
        at: at(0),
      });
      await insertNotification(suite.db, {
        ...base,
        channel: 'sms',
        recipient: '+4915228817386',
        status: 'failed',
        error: 'Twilio answered 503',
        details: { attempt: 1, maxAttempts: 5, final: false, permanent: false, deadLetter: false },
        at: at(1),
      });
      await insertNotification(suite.db, {
        ...base,
        channel: 'sms',
        recipient: '+4915228817386',
        status: 'sent',
        details: { attempt: 2, maxAttempts: 5, via: 'twilio', reference: 'SM0123' },
        at: at(2),
      });
      await insertNotification(suite.db, {
        ...base,
        channel: 'http',
        recipient: 'https://hook:secret@hooks.example.test/alarm?token=abc#x',
        status: 'failed',
        error: 'address 10.0.0.1 is private',
        details: { attempt: 1, maxAttempts: 5, final: true, permanent: true, deadLetter: true },
        at: at(3),
      });
      await insertNotification(suite.db, {
        ...base,
        channel: 'system',
        recipient: 'system',
        status: 'sent',
        details: { attempt: 1, maxAttempts: 5, reference: null },
        at: at(4),
      });
      await insertNotification(suite.db, {
        ...base,
        ruleId: goneRuleId,
        channel: 'email',
        recipient: 'old@example.test',
        status: 'sent',
        details: { attempt: 1, maxAttempts: 5, via: 'smtp' },
        at: at(5),
      });
      await suite.db.query('DELETE FROM rules WHERE id = $1', [goneRuleId]);
      // Another device's entry stays in its own list.
      await insertNotification(suite.db, {
        companyId: team.company.id,
        deviceId: neighbour.id,
        channel: 'system',
        recipient: 'system',
        status: 'sent',
        at: at(6),
      });

      const client = await signIn(team.plain.email);
      const all = await client.get(`/api/v1/core/devices/${device.id}/notifications`);
      expect(all.status).toBe(200);
      expect(
        all.body.payload.map((n: { channel: string; status: string; rule_name: string | null }) => [
          n.channel,
          n.status,
          n.rule_name,
        ]),
      ).toEqual([
        ['email', 'sent', null],
        ['system', 'sent', 'Too warm'],
        ['http', 'failed', 'Too warm'],
        ['sms', 'sent', 'Too warm'],
        ['sms', 'failed', 'Too warm'],
        ['email', 'queued', 'Too warm'],
      ]);
      const [deleted, , webhook, sms, smsFailed, mail] = all.body.payload;
      expect(deleted).toMatchObject({ rule_id: goneRuleId, rule_name: null, via: 'smtp' });
      expect(webhook).toMatchObject({
        recipient: 'https://hooks.example.test/alarm',
        error: 'address 10.0.0.1 is private',
        final: true,
        sent_at: null,
      });
      expect(JSON.stringify(all.body)).not.toContain('secret');
      expect(JSON.stringify(all.body)).not.toContain('token=abc');
      expect(sms).toEqual({
        id: expect.any(Number),
        device_id: device.id,
        rule_id: ruleId,
        rule_name: 'Too warm',
        alarm_id: null,
        channel: 'sms',
        recipient: '+4915228817386',
        status: 'sent',
        error: null,
        via: 'twilio',
        reference: 'SM0123',
        attempt: 2,
        max_attempts: 5,
        final: false,
        created_at: at(2).toISOString(),
        sent_at: at(2).toISOString(),
      });
      expect(smsFailed).toMatchObject({ error: 'Twilio answered 503', final: false, attempt: 1 });
      expect(mail).toMatchObject({ recipient: 'alerts@example.test', via: 'outbox', sent_at: null });

      const channels = async (query: string) =>
        (await client.get(`/api/v1/core/devices/${device.id}/notifications?${query}`)).body.payload.map(
          (n: { channel: string }) => n.channel,
        );
      expect(await channels('status=failed')).toEqual(['http', 'sms']);
      expect(await channels('status=queued')).toEqual(['email']);
      expect(await channels('limit=2')).toEqual(['email', 'system']);
      // Both ends included, as in the device log.
      expect(await channels(`tsstart=${at(1).getTime()}&tsend=${at(3).toISOString()}`)).toEqual([
        'http',
        'sms',
        'sms',
      ]);
      const bad = await client.get(`/api/v1/core/devices/${device.id}/notifications?status=lost`);
      expect([bad.status, bad.body.code]).toEqual([422, 422]);
      const badPeriod = await client.get(`/api/v1/core/devices/${device.id}/notifications?tsend=tomorrow`);
      expect([badPeriod.status, badPeriod.body.code]).toEqual([422, 10002]);
    });

    it("never shows another company's entries, not even those it wrote for the same device before a reassignment", async () => {
      const team = await createTeam(suite.db);
      const former = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id);
      // Written while the device belonged to the former company: the log keeps that company (migration 0017).
      await insertNotification(suite.db, {
        companyId: former.company.id,
        deviceId: device.id,
        channel: 'email',
        recipient: 'secret@former.test',
        status: 'sent',
        at: new Date(),
      });
      await insertNotification(suite.db, {
        companyId: team.company.id,
        deviceId: device.id,
        channel: 'email',
        recipient: 'ops@team.test',
        status: 'sent',
        at: new Date(),
      });
      const res = await (await signIn(team.main.email)).get(
        `/api/v1/core/devices/${device.id}/notifications`,
      );
      expect(res.body.payload.map((n: { recipient: string }) => n.recipient)).toEqual(['ops@team.test']);
      const foreign = await (await signIn(former.main.email)).get(
        `/api/v1/core/devices/${device.id}/notifications`,
      );
      expect([foreign.status, foreign.body.code]).toEqual([404, 10]);
      expect(JSON.stringify(foreign.body)).not.toContain('former.test');
    });
  });
});
