export type { Db, Queryable, QueryResult, TransactionOptions, Unlisten } from './db';
export {
  loadMigrationsFromDir,
  type MigrateOptions,
  type MigrateResult,
  type Migration,
  MigrationError,
  migrate,
  migrations,
} from './migrate';
export { type OpenDbOptions, openDb } from './open';
export { LISTENER_APPLICATION_NAME } from './pg-listener';
export { openPglite, type PgliteOptions } from './pglite';
export { pgliteWorkerOf } from './pglite-client';
export { openPostgres, type PostgresOptions } from './postgres';
export * from './repositories/alarms';
export * from './repositories/companies';
export * from './repositories/countries';
export * from './repositories/dashboards';
export * from './repositories/device-data';
export * from './repositories/devices';
export * from './repositories/devices-ingest';
export * from './repositories/downlinks';
export * from './repositories/groups';
export * from './repositories/integration-tokens';
export * from './repositories/log-retention';
export * from './repositories/messages';
export * from './repositories/network-servers';
export * from './repositories/rules';
export * from './repositories/rules-worker';
// repositories of security
export * from './repositories/security';
export * from './repositories/sensor-checks';
export * from './repositories/sessions';
export * from './repositories/tts-downlink-routes';
export * from './repositories/users';
export * from './repositories/virtual-fields';
export { TENANT_ROLE, withTenant } from './tenant';

// repositories of delivery and notifications
export {
  type DownlinkTargetRecord,
  findDownlinkTarget,
  insertQueuedDownlink,
  markDownlinkSent,
  type QueuedDownlink,
} from './repositories/downlinks';
export {
  claimJobKeyRows,
  completeJobKeys,
  insertJobKeys,
  type JobKeyClaimRow,
  purgeExpiredJobKeys,
  releaseJobKeys,
} from './repositories/job-keys';
export { insertSystemMessage } from './repositories/messages';
export {
  insertNotificationLogEntries,
  listDeviceNotificationLog,
  type NotificationLogEntry,
  type NotificationLogRecord,
  type NotificationStatus,
} from './repositories/notification-log';
export {
  insertOutboxEmail,
  insertOutboxEmails,
  listOutboxEmails,
  type OutboxEmailEntry,
  type OutboxEmailRecord,
} from './repositories/outbox-emails';
export {
  listPhoneMessages,
  type PhoneMessageEntry,
  type PhoneMessageRecord,
  savePhoneMessage,
} from './repositories/outbox-phone-messages';
export {
  type ActionDeliveryRecord,
  type ActionDeliveryRequest,
  findActionDeliveries,
  loadCompanyActionDeliveries,
  type RuleActionDeliveryRow,
} from './repositories/rule-action-deliveries';
