import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

forEachDb((suite) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function signIn(email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }

  async function message(companyId: number, subject: string, userId: number | null = null) {
    const { rows } = await suite.db.query<{ id: number }>(
      'INSERT INTO messages (company_id, user_id, subject, body) VALUES ($1, $2, $3, $4) RETURNING id::int AS id',
      [companyId, userId, subject, `${subject} body`],
    );
    return rows[0]!.id;
  }

  it('lists unread (show_read=0) or all (show_read=1) with counts; reading and deleting move the counts (spec 4)', async () => {
    const team = await createTeam(suite.db);
    const a = await message(team.company.id, 'A');
    const b = await message(team.company.id, 'B', team.plain.id);
    await message(team.company.id, 'For the main user', team.main.id);
    const stranger = await createTeam(suite.db);
    await message(stranger.company.id, 'Foreign');
    const client = await signIn(team.plain.email);

    // The company's message to everyone and the user's own; not the main user's, not another company's.
    const unread = await client.get('/api/v1/core/messages?show_read=0');
    expect(unread.body.payload).toMatchObject({ read: 0, unread: 2 });
    expect(unread.body.payload.messages.map((m: { subject: string }) => m.subject).sort()).toEqual([
      'A',
      'B',
    ]);

    const read = await client.put(`/api/v1/core/messages/${a}`);
    expect(read.body.payload).toEqual({ id: a, read: 1, unread: 1 });
    expect((await client.get('/api/v1/core/messages?show_read=0')).body.payload.messages).toHaveLength(1);
    const all = await client.get('/api/v1/core/messages?show_read=1');
    expect(all.body.payload).toMatchObject({ read: 1, unread: 1 });
    expect(all.body.payload.messages.find((m: { id: number }) => m.id === a)).toMatchObject({
      is_read: true,
    });

    const deleted = await client.delete(`/api/v1/core/messages/${a}`);
    expect(deleted.body.payload).toEqual({ id: a, read: 0, unread: 1 });
    const { rows } = await suite.db.query('SELECT id::int AS id FROM messages WHERE id = $1', [a]);
    expect(rows).toEqual([]);
    expect((await client.put(`/api/v1/core/messages/${b}`)).body.payload).toEqual({
      id: b,
      read: 1,
      unread: 0,
    });
  });

  it("answers 404 for another company's or another user's message and changes nothing; CSRF enforced", async () => {
    const team = await createTeam(suite.db);
    const mine = await message(team.company.id, 'Mine', team.plain.id);
    const forMain = await message(team.company.id, 'Main only', team.main.id);
    const stranger = await createTeam(suite.db);
    const foreign = await message(stranger.company.id, 'Foreign');
    const client = await signIn(team.plain.email);
    for (const res of [
      await client.put(`/api/v1/core/messages/${foreign}`),
      await client.delete(`/api/v1/core/messages/${foreign}`),
      await client.put(`/api/v1/core/messages/${forMain}`),
      await client.delete(`/api/v1/core/messages/${forMain}`),
    ])
      expect([res.status, res.body.code]).toEqual([404, 404]);
    expect((await client.put(`/api/v1/core/messages/${mine}`, {}, { csrf: false })).body.code).toBe(77);
    const { rows } = await suite.db.query<{ id: number; is_read: boolean }>(
      'SELECT id::int AS id, is_read FROM messages WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[mine, forMain, foreign]],
    );
    expect(rows).toEqual([
      { id: mine, is_read: false },
      { id: forMain, is_read: false },
      { id: foreign, is_read: false },
    ]);
  });

  it("lists a failed LoRaWAN command as the platform's own message with its kind and parameters; a rule's has none", async () => {
    const team = await createTeam(suite.db);
    const insert = async (sql: string, params: unknown[]) =>
      (await suite.db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, params)).rows[0]!.id;
    const valve = await insert(`INSERT INTO devices (company_id, name) VALUES ($1, 'Valve 7')`, [
      team.company.id,
    ]);
    const sentAt = new Date('2026-03-01T06:00:00Z');
    const downlink = await insert(
      `INSERT INTO downlinks (company_id, device_id, command, state, reference, sent_at)
       VALUES ($1, $2, 'switch_solenoid_valve', 'sent', 'q-7', $3)`,
      [team.company.id, valve, sentAt],
    );
    await insert(`INSERT INTO messages (company_id, subject, body) VALUES ($1, 'Too warm', '9 °C')`, [
      team.company.id,
    ]);
    await suite.db.query(`UPDATE downlinks SET state = 'failed', error = 'device offline' WHERE id = $1`, [
      downlink,
    ]);

    const client = await signIn(team.plain.email);
    const res = await client.get('/api/v1/core/messages?show_read=0');
    expect(res.status).toBe(200);
    const [failed, rule] = res.body.payload.messages;
    expect(failed).toMatchObject({
      subject: 'Command not delivered: Valve 7',
      body: '"Switch solenoid valve", sent 1 Mar 2026, 06:00:00, did not reach the device: device offline.',
      level: 3,
      device_id: valve,
      kind: 'downlink_failed',
      params: {
        downlink_id: downlink,
        device: 'Valve 7',
        command: 'switch_solenoid_valve',
        error: 'device offline',
        by_rule: false,
      },
    });
    expect(new Date(failed.params.sent_at)).toEqual(sentAt);
    expect(rule).toMatchObject({ subject: 'Too warm', kind: null, params: null });

    // The same message read by a German user: worded in German; the rule's own text stays as written.
    await suite.db.query(`UPDATE users SET locale = 'de' WHERE id = $1`, [team.plain.id]);
    const german = (await client.get('/api/v1/core/messages?show_read=0')).body.payload.messages;
    expect(german[0]).toMatchObject({
      subject: 'Befehl nicht zugestellt: Valve 7',
      body: '„Magnetventil schalten“, gesendet 01.03.2026, 06:00:00, hat das Gerät nicht erreicht: device offline.',
      kind: 'downlink_failed',
    });
    expect(german[1]).toMatchObject({ subject: 'Too warm', body: '9 °C' });
  });
});
