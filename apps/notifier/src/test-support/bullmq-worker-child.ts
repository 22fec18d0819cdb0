/**
 * A notifier worker in its own process, for the crash test (jobs/worker-crash.test.ts): BullMQ on the
 * machine's Redis, PostgreSQL for job_keys and the log, SMTP from the test. Arguments arrive as one JSON
 * argv entry (tests only; the application reads configuration through @iot/config).
 */

import type { NotifyActionPayload } from '@iot/contracts';
import { openPostgres } from '@iot/db';
import {
  BullmqJobQueue,
  claimJobKeys,
  createDbJobKeyStore,
  notifyActionJob,
  preloadActions,
} from '@iot/jobs';
import { startNotifier } from '../index';
import { silentLog, testConfig } from './fixtures';

interface ChildArgs {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  smtpUrl: string;
  /**
   * Jobs this process hands itself as the one-process platform's rules worker does: rows preloaded and
   * keys claimed in one transaction, then enqueued `claimed` (their first attempts run here).
   */
  produce?: NotifyActionPayload[];
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
const job = notifyActionJob({ timeoutMs: 3_000, retry: { attempts: 10, delayMs: 300, maxDelayMs: 1_500 } });
await startNotifier({ config: testConfig({ SMTP_URL: args.smtpUrl }), db, log: silentLog, queue, job });
if (args.produce) {
  const produce = args.produce;
  const { jobs, claimed } = await db.transaction(async (tx) => {
    const rows = await preloadActions(tx, produce);
    const jobs = produce.map((p, i) => (rows[i] ? { ...p, preloaded: rows[i] } : p));
    const claimed = await claimJobKeys(
      tx,
      jobs.map((p) => ({ key: job.idempotencyKey(p), jobName: job.name })),
    );
    return { jobs, claimed };
  });
  for (const p of jobs) await queue.enqueue(job, p, { claimed: claimed.has(job.idempotencyKey(p)) });
}
process.stdout.write('ready\n');
