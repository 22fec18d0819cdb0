/**
 * The platform's Prometheus metrics (issue #29), one registry per process: the embedded platform's apps
 * share it, each distributed app has its own. Names start with `iot_`; prom-client's default metrics add
 * process memory, CPU and event-loop delay (`nodejs_eventloop_lag_*`). Served as text by `/metrics`
 * (health-http.ts).
 */
import client from 'prom-client';

export const metricsRegistry = new client.Registry();
client.collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 20 });

const registers = [metricsRegistry];
const LATENCY = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Sources asked at each scrape: gauges whose value lives elsewhere (consumer lag). */
type Source = () => Promise<number> | number;
const lagSources = new Map<string, Source>();

interface JobCounts {
  job: string;
  waiting: number;
  running: number;
}
/** The job queues of this process, asked for their depth at each scrape. */
const jobQueues = new Set<{ depth(): Promise<JobCounts[]> }>();
/** Database connections of this process (PGlite: its one; PostgreSQL: the pool), asked at each scrape. */
type ConnectionSource = () => { inUse: number; total: number; waiting: number };
const connectionSources = new Map<string, ConnectionSource>();

async function collectFrom(gauge: client.Gauge<string>, label: string, sources: Map<string, Source>) {
  gauge.reset();
  await Promise.all(
    [...sources].map(async ([key, source]) => {
      try {
        gauge.set({ [label]: key }, await source());
      } catch {
        // A source that cannot answer now is left out of this scrape rather than failing it.
      }
    }),
  );
}

export const metrics = {
  uplinksReceived: new client.Counter({
    name: 'iot_uplinks_received_total',
    help: 'Uplinks that reached a front door',
    labelNames: ['front_door'],
    registers,
  }),
  uplinksAccepted: new client.Counter({
    name: 'iot_uplinks_accepted_total',
    help: 'Uplinks acknowledged to the sender (stored in the event log)',
    labelNames: ['front_door'],
    registers,
  }),
  uplinksRefused: new client.Counter({
    name: 'iot_uplinks_refused_total',
    help: 'Uplinks refused, by front door and reason',
    labelNames: ['front_door', 'reason'],
    registers,
  }),
  decodeErrors: new client.Counter({
    name: 'iot_decode_errors_total',
    help: 'Payloads a codec could not decode',
    registers,
  }),
  codecSeconds: new client.Histogram({
    name: 'iot_codec_seconds',
    help: 'Time a codec took per payload: a built-in driver, or a user codec in its sandbox (with the queue)',
    labelNames: ['kind'],
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1],
    registers,
  }),
  eventLogPublishSeconds: new client.Histogram({
    name: 'iot_event_log_publish_seconds',
    help: 'Latency of a publish to the event log until it was accepted',
    buckets: LATENCY,
    registers,
  }),
  consumerLag: new client.Gauge({
    name: 'iot_event_log_consumer_lag',
    help: 'Records of the uplink topic not yet committed, per consumer group',
    labelNames: ['group'],
    registers,
    async collect() {
      await collectFrom(this, 'group', lagSources);
    },
  }),
  writerBatchSize: new client.Histogram({
    name: 'iot_storage_writer_batch_size',
    help: 'Uplinks per storage-writer commit',
    buckets: [1, 5, 10, 50, 100, 500, 1000, 5000],
    registers,
  }),
  writerCommitSeconds: new client.Histogram({
    name: 'iot_storage_writer_commit_seconds',
    help: 'Latency of a storage-writer commit',
    buckets: LATENCY,
    registers,
  }),
  ruleEvaluations: new client.Counter({
    name: 'iot_rule_evaluations_total',
    help: 'Rules evaluated',
    registers,
  }),
  ruleFirings: new client.Counter({
    name: 'iot_rule_firings_total',
    help: 'Rule evaluations that fired actions',
    registers,
  }),
  ruleEvaluationSeconds: new client.Histogram({
    name: 'iot_rule_evaluation_seconds',
    help: 'Time to evaluate one batch of uplinks against their rules',
    buckets: LATENCY,
    registers,
  }),
  notifications: new client.Counter({
    name: 'iot_notifications_total',
    help: 'Notifications sent, by channel and outcome',
    labelNames: ['channel', 'outcome'],
    registers,
  }),
  notificationSendSeconds: new client.Histogram({
    name: 'iot_notification_send_seconds',
    help: 'Latency of one notification send, by channel',
    labelNames: ['channel'],
    buckets: LATENCY,
    registers,
  }),
  jobQueueDepth: new client.Gauge({
    name: 'iot_job_queue_depth',
    help: 'Jobs waiting (due, delayed or for a retry) and running, by job and state',
    labelNames: ['job_name', 'state'],
    registers,
    async collect() {
      this.reset();
      for (const queue of jobQueues) {
        try {
          for (const { job, waiting, running } of await queue.depth()) {
            this.inc({ job_name: job, state: 'waiting' }, waiting);
            this.inc({ job_name: job, state: 'running' }, running);
          }
        } catch {
          // A queue that cannot answer now (Redis down) is left out of this scrape rather than failing it.
        }
      }
    },
  }),
  dbConnections: new client.Gauge({
    name: 'iot_db_connections',
    help: 'Database connections by state: in_use (running a statement or transaction), open, waiting (callers queued for one)',
    labelNames: ['db', 'state'],
    registers,
    collect() {
      this.reset();
      for (const [db, source] of connectionSources) {
        const { inUse, total, waiting } = source();
        this.set({ db, state: 'in_use' }, inUse);
        this.set({ db, state: 'open' }, total);
        this.set({ db, state: 'waiting' }, waiting);
      }
    },
  }),
  jobRetries: new client.Counter({
    name: 'iot_job_retries_total',
    // `job_name`, not `job`: Prometheus keeps `job` for the scrape job and would rename ours.
    help: 'Job attempts that failed and will be tried again, by job',
    labelNames: ['job_name'],
    registers,
  }),
  httpRequestSeconds: new client.Histogram({
    name: 'iot_http_request_seconds',
    help: 'API request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY,
    registers,
  }),
};

function register(sources: Map<string, Source>, key: string, source: Source): () => void {
  sources.set(key, source);
  return () => {
    if (sources.get(key) === source) sources.delete(key);
  };
}

/** Consumer lag of a group, asked at each scrape; returns the unregistration. */
export const reportConsumerLag = (group: string, source: Source) => register(lagSources, group, source);

/** Reports a job queue's depth at each scrape; returns the unregistration. */
export function reportJobQueue(queue: { depth(): Promise<JobCounts[]> }): () => void {
  jobQueues.add(queue);
  return () => jobQueues.delete(queue);
}

/** Reports a database's connections (`db`: pglite or postgres) at each scrape; returns the unregistration. */
export function reportDbConnections(db: string, source: ConnectionSource): () => void {
  connectionSources.set(db, source);
  return () => {
    if (connectionSources.get(db) === source) connectionSources.delete(db);
  };
}

/** Seconds since `started` (a performance.now() value), for histograms. */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
