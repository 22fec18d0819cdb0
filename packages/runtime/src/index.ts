export { type CoalesceOptions, type Coalescer, coalesce } from './coalesce.js';
export { Health, type HealthCheck } from './health.js';
export { answerHealth, isHealthPath } from './health-http.js';
export { createLogger, type Logger } from './logger.js';
export {
  metrics,
  metricsRegistry,
  reportConsumerLag,
  reportDbConnections,
  reportJobQueue,
  secondsSince,
} from './metrics.js';
export { startProcessHealth } from './process-health.js';
export { exitAfter, runUntilSignal, type Service } from './service.js';
export { STAGE_CHANNEL, type StageEvent, type StageHook, stageHook } from './stage-trace.js';
