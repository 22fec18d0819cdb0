import { connect } from 'node:net';
import type { Queryable } from '@iot/db';
// The coalescer alone: the mail entry point stays free of the queue adapters (the API imports it).
import { coalesce } from '@iot/runtime';
import nodemailer, { type Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { Mailer, MailMessage, MailResult } from './mailer';
import { recipients } from './mailer';
import { type OutboxRecord, recordOutboxEmails } from './outbox';

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port or smtps://... */
  url: string;
  from: string;
  /** Where each sent or failed mail is recorded (outbox_emails with sent_at or error). */
  db: Queryable;
  /** Socket and greeting timeouts (nodemailer's defaults wait minutes). */
  timeoutMs?: number;
  /**
   * SMTP connections kept open and reused (nodemailer's pool; default 5). Without a pool every mail
   * pays connect, greeting and EHLO; the notifier passes SMTP_POOL_CONNECTIONS.
   */
  maxConnections?: number;
}

/**
 * Transport options from SMTP_URL. nodemailer reads ONLY the URL when one is given (`url` beside other
 * options drops them all: `pool`, timeouts, `getSocket`), so the URL is parsed here with nodemailer's own
 * parser and the options go beside it. Defaults a URL's query may override: a pool of `maxConnections`,
 * a pooled connection replaced after 1000 mails (nodemailer's default is 100).
 */
export function transportOptions(
  url: string,
  options: { maxConnections: number; timeoutMs?: number | undefined },
): SMTPPool.Options {
  const fromUrl = parseConnectionUrl(url);
  const timeout = options.timeoutMs;
  return {
    pool: true as const,
    maxConnections: options.maxConnections,
    maxMessages: 1000,
    ...(timeout === undefined
      ? {}
      : { connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }),
    ...(fromUrl as Omit<SMTPPool.Options, 'pool'>),
    getSocket: (socketOptions, callback) =>
      connectNoDelay(socketOptions, timeout ?? DEFAULT_CONNECT_TIMEOUT_MS, callback),
  };
}

/** nodemailer's own connection timeout (2 min) for a URL that sets none. */
const DEFAULT_CONNECT_TIMEOUT_MS = 120_000;

/**
 * The TCP connection of a pooled SMTP client, with Nagle's algorithm off (TCP_NODELAY). nodemailer
 * writes a message's end in several small writes (body, CRLF, "."); with Nagle on, the last ones wait
 * for the server's ACK of the first, which a server that has nothing to answer yet delays by about
 * 40 ms (Linux delayed ACK): every mail took about 45 ms on an idle local connection instead of 5,
 * and a pool of 32 connections could not send more than about 400 mails/s (measured, apps/notifier
 * README "SMTP"). TLS (smtps, STARTTLS) is set up by nodemailer on top of this socket as before.
 */
function connectNoDelay(
  options: { host?: string | undefined; port?: number | undefined; secure?: boolean | undefined },
  timeoutMs: number,
  // biome-ignore lint/suspicious/noExplicitAny: nodemailer's callback type (`socketOptions: any`)
  callback: (error: Error | null, socketOptions?: any) => void,
): void {
  const socket = connect({
    host: options.host || 'localhost',
    port: Number(options.port) || (options.secure ? 465 : 587),
    noDelay: true,
    keepAlive: true,
  });
  let settled = false;
  const finish = (error: Error | null) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    socket.off('error', fail);
    if (error) {
      socket.destroy();
      callback(error);
    } else callback(null, { connection: socket });
  };
  const fail = (error: Error) => finish(error);
  const timer = setTimeout(
    () => finish(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })),
    timeoutMs,
  );
  socket.once('error', fail);
  socket.once('connect', () => finish(null));
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  /** Outbox rows of mails finishing at once go in one statement. */
  private readonly record: (entry: { message: MailMessage; state: OutboxRecord }) => Promise<void>;

  constructor(private readonly options: SmtpMailerOptions) {
    this.transport = nodemailer.createTransport(
      transportOptions(options.url, {
        maxConnections: options.maxConnections ?? 5,
        timeoutMs: options.timeoutMs,
      }),
    );
    this.record = coalesce(async (entries) => {
      await recordOutboxEmails(options.db, entries);
      return entries.map(() => undefined);
    });
  }

  async send(message: MailMessage): Promise<MailResult> {
    let messageId: string;
    try {
      const info = await this.transport.sendMail({
        from: this.options.from,
        to: recipients(message.to),
        ...(message.cc && message.cc.length > 0 ? { cc: message.cc } : {}),
        subject: message.subject,
        text: message.text,
        ...(message.messageId ? { messageId: message.messageId } : {}),
      });
      messageId = String(info.messageId);
    } catch (err) {
      await this.record({ message, state: { error: (err as Error).message } });
      throw err;
    }
    await this.record({ message, state: { sentAt: new Date() } });
    return { via: 'smtp', messageId };
  }

  close(): void {
    this.transport.close();
  }
}
