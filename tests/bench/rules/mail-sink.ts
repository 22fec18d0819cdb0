/** The SMTP server the mails go to, in a worker thread: it records when each bench mail arrived. */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { ABOVE_BASE } from './settings.js';

// ------------------------------------------------------------------------------------------ SMTP sinks
export interface MailSink {
  port: number;
  /** performance.now() at which the mail with this sequence number was accepted (end of DATA). */
  arrivals: Map<number, number>;
  duplicates: number;
  close: () => Promise<void>;
}

/**
 * The SMTP server runs in a worker thread of its own: a real mail server is another process, and one in
 * the bench's main thread would answer only when the side under test lets the event loop turn (ours
 * runs PGlite on that thread), making the server's delays part of the sender's figure. The worker
 * records when each mail's DATA ended on the shared clock (performance.timeOrigin + now) and posts it.
 */
const MAIL_SINK_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { SMTPServer } = require('smtp-server');
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  // smtp-server looks up each client's address in reverse DNS by default: about a second here per
  // connection, which would be the SMTP server's delay, not the sender's.
  disableReverseLookup: true,
  size: 1000000,
  onData(stream, _session, callback) {
    let head = '';
    stream.on('data', (chunk) => {
      if (head.length < 4096) head += chunk.toString('utf8');
    });
    stream.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const m = /^Subject: bench (\\d+)/im.exec(head);
      if (m) parentPort.postMessage({ seq: Number(m[1]) - workerData.aboveBase, at });
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.server.address().port }));
parentPort.on('message', (message) => {
  if (message === 'close') server.close(() => parentPort.postMessage({ closed: true }));
});
`;

/** A local SMTP server (in a worker thread) that records when each mail's DATA ended, by the number in its subject. */
export async function startMailSink(): Promise<MailSink> {
  const arrivals = new Map<number, number>();
  const sink = { arrivals, duplicates: 0 } as MailSink;
  const worker = new Worker(MAIL_SINK_WORKER, { eval: true, workerData: { aboveBase: ABOVE_BASE } });
  let closed: (() => void) | undefined;
  sink.port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { port?: number; seq?: number; at?: number; closed?: boolean }) => {
      if (message.port !== undefined) resolve(message.port);
      if (message.closed) closed?.();
      if (message.seq === undefined || message.at === undefined) return;
      // The worker's clock as this thread's performance.now().
      const at = message.at - performance.timeOrigin;
      if (arrivals.has(message.seq)) sink.duplicates += 1;
      else arrivals.set(message.seq, at);
    });
  });
  sink.close = async () => {
    await new Promise<void>((resolve) => {
      closed = resolve;
      worker.postMessage('close');
    });
    await worker.terminate();
  };
  return sink;
}
