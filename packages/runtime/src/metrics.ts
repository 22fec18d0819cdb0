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
    help: 'Time a codec took per payload',
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
  jobRetries: new client.Counter({
    name: 'iot_job_retries_total',
    help: 'Job attempts that failed and will be tried again, by job',
    labelNames: ['job'],
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

/** Seconds since `started` (a performance.now() value), for histograms. */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
