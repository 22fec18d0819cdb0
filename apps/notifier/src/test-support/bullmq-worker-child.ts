/**
 * A notifier worker in its own process, for the crash test (jobs/worker-crash.test.ts): BullMQ on the
 * machine's Redis, PostgreSQL for job_keys and the log, SMTP from the test. Arguments arrive as one JSON
 * argv entry (tests only; the application reads configuration through @iot/config).
 */
import { openPostgres } from '@iot/db';
import { BullmqJobQueue, createDbJobKeyStore } from '@iot/jobs';
import { notifyActionJob, startNotifier } from '../index';
import { silentLog, testConfig } from './fixtures';

interface ChildArgs {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  smtpUrl: string;
}

const args = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;
const db = openPostgres({ url: args.databaseUrl, max: 4 });
const queue = new BullmqJobQueue({
  url: args.redisUrl,
  prefix: args.prefix,
  keys: createDbJobKeyStore(db),
  // A dead worker's job is back in the queue about a second after it died.
  lockDurationMs: 1_000,
  stalledIntervalMs: 500,
});
await queue.ready();
await startNotifier({
  config: testConfig({ SMTP_URL: args.smtpUrl }),
  db,
  log: silentLog,
  queue,
  job: notifyActionJob({ timeoutMs: 3_000, retry: { attempts: 10, delayMs: 300, maxDelayMs: 1_500 } }),
});
process.stdout.write('ready\n');
