/**
 * Local stand-ins for the paid clouds (ARCHITECTURE "Twilio in tests"): an SMTP server that keeps what it
 * receives, and an HTTP endpoint that answers like Twilio's REST API for the real twilio library.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message, headers and body. */
  data: string;
}

/** Quoted-printable text (RFC 2045, or RFC 2047's Q with `_` for space) back to UTF-8. */
function decodeQuoted(text: string, q: boolean): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (q && joined[i] === '_') bytes.push(0x20);
    else bytes.push(...Buffer.from(joined[i] ?? ''));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The subject and text of a plain-text mail as nodemailer writes it (quoted-printable, RFC 2047 subject). */
export function readMail(mail: ReceivedMail): { subject: string; text: string } {
  const [head = '', ...rest] = mail.data.split(/\r?\n\r?\n/);
  const rawSubject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(head)?.[1] ?? '';
  const subject = rawSubject
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=\s*/gi, (_m, encoded: string) => decodeQuoted(encoded, true));
  const body = rest.join('\n\n');
  const text = /Content-Transfer-Encoding: quoted-printable/i.test(head) ? decodeQuoted(body, false) : body;
  return { subject: subject.trim(), text: text.trim() };
}

export async function startSmtpServer(): Promise<{
  url: string;
  received: ReceivedMail[];
  close: () => Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // close() waits this long for clients to hang up before it drops them (smtp-server's default is
    // 30 s): a notifier's pooled connections stay open while it runs, and a test closing its server
    // first waited the full 30 s (worker-crash.test.ts: 42 s instead of 12).
    closeTimeout: 500,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TwilioRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
}

/** Answers Messages.json and Calls.json with 201 and a SID, as Twilio does; keeps every request. */
export async function startTwilioStandIn(): Promise<{
  url: string;
  requests: TwilioRequest[];
  close: () => Promise<void>;
}> {
  const requests: TwilioRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        form,
      });
      const kind = req.url?.endsWith('/Calls.json') ? 'CA' : req.url?.endsWith('/Messages.json') ? 'SM' : '';
      if (req.method !== 'POST' || !kind) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ code: 20404, message: 'The requested resource was not found', status: 404 }),
        );
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          sid: `${kind}${String(requests.length).padStart(32, '0')}`,
          status: 'queued',
          to: form.To,
          from: form.From,
          body: form.Body,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
