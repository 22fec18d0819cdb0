// The key purge is a statement of the job_keys repository; the queue's users find it here.
export { purgeExpiredJobKeys } from '@iot/db';
export { backoffDelay } from './backoff';
export {
  BullmqJobQueue,
  type BullmqJobQueueOptions,
  type BullmqJobTimes,
  deleteRedisPrefix,
  readBullmqJobTimes,
} from './bullmq/bullmq-queue';
export {
  enqueueNotifyAction,
  NOTIFY_ACTION,
  NOTIFY_ACTION_POLICY,
  type NotifyActionJobOptions,
  notifyActionJob,
  preloadActions,
} from './catalogue/notify-action';
export { enqueueNotifyWater, NOTIFY_WATER, NOTIFY_WATER_POLICY } from './catalogue/notify-water';
export { InProcessJobQueue, type InProcessJobQueueOptions } from './in-process/in-process-queue';
export { jobIdFor } from './job-id';
export {
  type ClaimResult,
  claimJobKeys,
  createDbJobKeyStore,
  createMemoryJobKeyStore,
  type JobKeyStore,
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
  type QueueDepth,
  type QueuePolicy,
  type RetryPolicy,
} from './types';
export { validatePayload } from './validate-payload';
