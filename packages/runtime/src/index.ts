export { createLogger, type Logger } from './logger.js';
export { type Service, runUntilSignal } from './service.js';
