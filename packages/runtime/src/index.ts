export { type CoalesceOptions, type Coalescer, coalesce } from './coalesce.js';
export { type CheckState, Health, type HealthCheck, type Readiness } from './health.js';
export {
  answerHealth,
  type HealthAnswer,
  isHealthPath,
  isLoopback,
  startHealthServer,
} from './health-http.js';
export { createLogger, type Logger } from './logger.js';
export {
  metrics,
  metricsRegistry,
  reportConsumerLag,
  reportDbConnections,
  reportQueueDepth,
  secondsSince,
} from './metrics.js';
export { type ProcessHealth, startProcessHealth } from './process-health.js';
export { runUntilSignal, type Service } from './service.js';
export { STAGE_CHANNEL, type StageEvent, type StageHook, stageHook } from './stage-trace.js';
