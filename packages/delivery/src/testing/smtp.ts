/**
 * An SMTP server started in a test (architecture: the local stand-in for a mail provider). Tests only;
 * exported as `@iot/delivery/testing/smtp` for the end-to-end tests.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

export interface TestSmtp {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Mails whose data arrived, counted before the server answers (to see that a client is mid-send). */
  dataArrived: number;
  /** SMTP connections opened so far (a pooled client opens few for many mails). */
  connections: number;
  /** How long the 250 answer to DATA is held back; may be changed while the server runs. */
  answerDelayMs: number;
  close(): Promise<void>;
}

/**
 * `answerDelayMs` holds the 250 answer to DATA back. A mail counts as received only once that answer
 * went out on a still-open connection: before it, the client owns the message (RFC 5321 4.1.1.4), and a
 * client that dies then has not delivered it.
 */
export async function startTestSmtp(
  options: { answerDelayMs?: number; rejectRecipient?: (address: string) => boolean } = {},
): Promise<TestSmtp> {
  const closed = new Set<string>();
  const state: TestSmtp = {
    url: '',
    port: 0,
    received: [],
    dataArrived: 0,
    connections: 0,
    answerDelayMs: options.answerDelayMs ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Reverse DNS of 127.0.0.1 can take a second per connection on some machines.
    disableReverseLookup: true,
    // close() waits this long for clients to hang up before it drops them (smtp-server's default is
    // 30 s): a notifier's pooled connections stay open while it runs, and a test closing its server
    // first waited the full 30 s (worker-crash.test.ts: 42 s instead of 12).
    closeTimeout: 500,
    onConnect(_session, callback) {
      state.connections += 1;
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipient?.(address.address)) {
        callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      stream.on('end', () => {
        state.dataArrived += 1;
        const accept = () => {
          if (closed.has(session.id)) return;
          state.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        };
        if (state.answerDelayMs > 0) setTimeout(accept, state.answerDelayMs);
        else accept();
      });
    },
  });
  // A client that dies mid-session (the fault suite kills notifiers) resets its connection: not an
  // error of the stand-in, which would otherwise throw it as an uncaught exception.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.server.address() as AddressInfo).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  return state;
}

function decodeQuotedPrintable(text: string, underscoreIsSpace: boolean): string {
  const bytes = (underscoreIsSpace ? text.replace(/_/g, ' ') : text).replace(/=\r?\n/g, '');
  return Buffer.from(
    bytes.replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/**
 * Header and body of a received mail as text: folded headers unfolded, RFC 2047 encoded words
 * (=?UTF-8?Q?...?= and ?B?) decoded, a quoted-printable body decoded. Enough for nodemailer's output.
 */
export function mailText(data: string): string {
  const split = data.indexOf('\r\n\r\n');
  const head = data.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = data.slice(split + 4);
  // Whitespace between two adjacent encoded words is not part of the text (RFC 2047 6.2); a line break
  // after the last one is the end of its header.
  const headers = head.replace(
    /=\?UTF-8\?([QB])\?([^?]*)\?=(?:[ \t]+(?==\?UTF-8\?))?/gi,
    (_m, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text, true),
  );
  const quoted = /content-transfer-encoding: quoted-printable/i.test(head);
  return `${headers}\r\n\r\n${quoted ? decodeQuotedPrintable(body, false) : body}`;
}

/** The subject and the text of a plain-text mail as nodemailer writes it, decoded (see mailText). */
export function readMail(mail: ReceivedMail): { subject: string; text: string } {
  const decoded = mailText(mail.data);
  const split = decoded.indexOf('\r\n\r\n');
  const head = decoded.slice(0, split);
  return {
    subject: (/^Subject: (.*)$/im.exec(head)?.[1] ?? '').trim(),
    text: decoded.slice(split + 4).trim(),
  };
}
