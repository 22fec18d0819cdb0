export { type CoalesceOptions, type Coalescer, coalesce } from './coalesce.js';
export { createLogger, type Logger } from './logger.js';
export { runUntilSignal, type Service } from './service.js';
export { STAGE_CHANNEL, type StageEvent, type StageHook, stageHook } from './stage-trace.js';
