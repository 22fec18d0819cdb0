export { backoffDelay } from './backoff';
export {
  BullmqJobQueue,
  type BullmqJobQueueOptions,
  type BullmqJobTimes,
  deleteRedisPrefix,
  readBullmqJobTimes,
} from './bullmq/bullmq-queue';
export { InProcessJobQueue, type InProcessJobQueueOptions } from './in-process/in-process-queue';
export { jobIdFor } from './job-id';
export {
  type ClaimResult,
  claimJobKeys,
  createDbJobKeyStore,
  createMemoryJobKeyStore,
  type JobKeyStore,
  purgeExpiredJobKeys,
} from './job-keys';
export { type OpenJobQueueOptions, openJobQueue } from './open-job-queue';
export { type JobEnvelope, leaseMs } from './run-attempt';
export {
  type DeadLetter,
  defineJob,
  type EnqueueOptions,
  type EnqueueResult,
  type JobContext,
  JobDeferredError,
  type JobDefinition,
  type JobHandler,
  JobInFlightError,
  type JobPayload,
  JobPayloadError,
  type JobQueue,
  JobTimeoutError,
  PermanentJobError,
  type Processor,
  type QueuePolicy,
  type RetryPolicy,
} from './types';
export { validatePayload } from './validate-payload';
