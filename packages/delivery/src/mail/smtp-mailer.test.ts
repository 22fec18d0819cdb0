import { type AddressInfo, createServer, type Socket } from 'node:net';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './create-mailer';
import { OutboxMailer } from './outbox-mailer';
import { SmtpMailer, transportOptions } from './smtp-mailer';

interface Received {
  from: string;
  to: string[];
  data: string;
}

// A real SMTP server in the test (architecture: local stand-in for the mail provider).
describe('SMTP mailer', () => {
  let db: TestDb;
  let server: SMTPServer;
  let port: number;
  const received: Received[] = [];

  beforeAll(async () => {
    db = await createTestDb('pglite');
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db?.drop();
  });

  it('chooses SMTP when SMTP_URL is set and the outbox otherwise', () => {
    expect(createMailer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'a@b.c' }, db)).toBeInstanceOf(
      SmtpMailer,
    );
    expect(createMailer({ MAIL_FROM: 'a@b.c' }, db)).toBeInstanceOf(OutboxMailer);
  });

  it('hands the mail to the SMTP server and records it as sent', async () => {
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: 'IoT <no-reply@iot.test>', db });
    try {
      await mailer.send({
        to: 'ops@example.test',
        cc: ['boss@example.test'],
        subject: 'Alarm',
        text: 'Tank full',
      });
    } finally {
      mailer.close();
    }
    const mail = received.at(-1)!;
    expect(mail.from).toBe('no-reply@iot.test');
    expect(mail.to.sort()).toEqual(['boss@example.test', 'ops@example.test']);
    expect(mail.data).toContain('Subject: Alarm');
    expect(mail.data).toContain('Tank full');
    const { rows } = await db.query<{ sent_at: Date | null; error: string | null }>(
      `SELECT sent_at, error FROM outbox_emails WHERE subject = 'Alarm'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sent_at).toBeInstanceOf(Date);
    expect(rows[0]!.error).toBeNull();
  });

  it('records a failed delivery with its error and rethrows', async () => {
    // Nothing listens on this port once the probe server is closed.
    const probe = new SMTPServer({ authOptional: true });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const deadPort = (probe.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${deadPort}`, from: 'no-reply@iot.test', db });
    try {
      await expect(mailer.send({ to: 'x@example.test', subject: 'Lost', text: '...' })).rejects.toThrow();
    } finally {
      mailer.close();
    }
    const { rows } = await db.query<{ sent_at: Date | null; error: string | null }>(
      `SELECT sent_at, error FROM outbox_emails WHERE subject = 'Lost'`,
    );
    expect(rows[0]!.sent_at).toBeNull();
    expect(rows[0]!.error).toEqual(expect.any(String));
  });

  it('keeps Nagle off its connections: mails on a warm pooled connection do not wait for delayed ACKs', async () => {
    // With Nagle on, the end of each message waited for the server's delayed ACK (about 40 ms per mail
    // on Linux). Checked on the socket itself, not by timing: the transport's own connection must have
    // TCP_NODELAY set (Node keeps the flag under its kSetNoDelay symbol and applies it on connect).
    const options = transportOptions(`smtp://127.0.0.1:${port}`, { maxConnections: 1 });
    const socket = await new Promise<Socket>((resolve, reject) =>
      options.getSocket?.({ ...options, host: '127.0.0.1', port }, (error, socketOptions) =>
        error ? reject(error) : resolve(socketOptions.connection),
      ),
    );
    try {
      const flag = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'kSetNoDelay');
      expect(flag).toBeDefined();
      expect((socket as unknown as Record<symbol, unknown>)[flag!]).toBe(true);
    } finally {
      socket.destroy();
    }
    // And mails go over one pooled connection one after the other, all of them delivered.
    const mailer = new SmtpMailer({
      url: `smtp://127.0.0.1:${port}`,
      from: 'no-reply@iot.test',
      db,
      maxConnections: 1,
    });
    try {
      for (let i = 0; i < 20; i++)
        await mailer.send({ to: 'seq@example.test', subject: `Seq ${i}`, text: 'x' });
    } finally {
      mailer.close();
    }
    expect(received.filter((m) => m.data.includes('Subject: Seq '))).toHaveLength(20);
  });

  it('applies its timeouts and the pool beside the URL, and the URL query still overrides', async () => {
    // A server that accepts and never greets: the greeting timeout ends the attempt (nodemailer used to
    // drop every option beside a URL, so this waited its default 30 s).
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    const mailer = new SmtpMailer({
      url: `smtp://127.0.0.1:${silentPort}`,
      from: 'no-reply@iot.test',
      db,
      timeoutMs: 300,
    });
    try {
      const start = performance.now();
      await expect(mailer.send({ to: 'x@example.test', subject: 'Silent', text: '...' })).rejects.toThrow(
        /timeout/i,
      );
      expect(performance.now() - start).toBeLessThan(5_000);
    } finally {
      mailer.close();
      silent.close();
    }
    expect(transportOptions('smtp://127.0.0.1:2525', { maxConnections: 7 })).toMatchObject({
      pool: true,
      maxConnections: 7,
      maxMessages: 1000,
      host: '127.0.0.1',
      port: 2525,
      secure: false,
    });
    expect(
      transportOptions('smtps://u:p@mail.test?maxConnections=3', { maxConnections: 7, timeoutMs: 5 }),
    ).toMatchObject({
      maxConnections: 3,
      secure: true,
      auth: { user: 'u', pass: 'p' },
      greetingTimeout: 5,
    });
  });
});
