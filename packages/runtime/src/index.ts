export { type CoalesceOptions, type Coalescer, coalesce } from './coalesce.js';
export { createLogger, type Logger } from './logger.js';
export { runUntilSignal, type Service } from './service.js';
