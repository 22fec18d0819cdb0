/**
 * The public surface of @iot/db: the `Db` interface and its openers, migrations, `withTenant`, and the
 * repositories, each named by the data it holds, and the maintenance and rollup timers. Helpers the
 * repositories share stay inside. The package exports nothing else but `@iot/db/testing` (test
 * databases) and the PGlite worker's script.
 */
export type {
  Db,
  Queryable,
  QueryResult,
  Statement,
  StepResults,
  Transaction,
  TransactionOptions,
  Unlisten,
} from './db';
export { DatabaseMissingError, ensureDatabase } from './ensure-database';
export {
  type DbMaintenance,
  type DbMaintenanceOptions,
  runMaintenancePass,
  startDbMaintenance,
} from './maintenance';
export {
  checkMigrationsCurrent,
  loadMigrationsFromDir,
  type MigrateOptions,
  type MigrateResult,
  type Migration,
  MigrationError,
  migrate,
  migrations,
} from './migrate';
export { checkDbReachable, databaseChecks, type OpenDbOptions, openDb } from './open';
export { LISTENER_APPLICATION_NAME } from './pg-listener';
export { openPglite, type PgliteOptions } from './pglite';
export { pgliteWorkerOf } from './pglite-client';
export { openPostgres, type PostgresOptions } from './postgres';
// repositories
export {
  ALARMS_CHANGED_CHANNEL,
  type AlarmClearRow,
  type AlarmFilter,
  type AlarmRecord,
  type AlarmRow,
  type AlarmState,
  acknowledgeAlarm,
  announceAlarmsChanged,
  clearAlarms,
  clearOpenAlarms,
  findAlarm,
  findOpenRuleAlarms,
  insertAlarms,
  listAlarms,
} from './repositories/alarms';
export {
  type ApiKeyRecord,
  countLiveApiKeys,
  insertApiKey,
  listApiKeys,
  type NewApiKey,
  revokeApiKey,
  useApiKey,
} from './repositories/api-keys';
export {
  type CompanyPurgePreview,
  type DeletedCompany,
  deleteCompanySessions,
  findCountryCode,
  findSupportAccess,
  type ImpersonationEntry,
  listDeletedCompanies,
  listImpersonations,
  previewCompanyPurge,
  purgeOneDeletedCompany,
  requestSupportAccess,
  restoreCompany,
  type SupportAccessRecord,
  setSupportAccess,
} from './repositories/client-admin';
export {
  CLIENT_LIMIT_KEYS,
  type ClientLimitKey,
  type ClientLimits,
  type ClientUsage,
  countClientUsage,
  countDeviceRules,
  findClientLimits,
  setClientLimits,
} from './repositories/client-limits';
export {
  type CodecFields,
  type CodecRecord,
  type CodecSuspension,
  codecExists,
  deleteCodec,
  findCodec,
  findIngestCodec,
  type IngestCodec,
  insertCodec,
  listCodecs,
  suspendCodec,
  updateCodec,
} from './repositories/codecs';
export {
  type ClientChanges,
  type ClientSummary,
  type CompanyBaseData,
  type CompanyRecord,
  findCompany,
  insertCompany,
  insertSupportRequest,
  listClients,
  type NewCompany,
  type NewSupportRequest,
  softDeleteCompany,
  updateClient,
  updateCompanyBaseData,
} from './repositories/companies';
export {
  type Country,
  countryExists,
  isConsistentAddress,
  listCountries,
  listDistricts,
  listStates,
  type NamedRef,
  stateExists,
} from './repositories/countries';
export {
  DASHBOARDS_CHANGED_CHANNEL,
  type DashboardRecord,
  type DeviceCurrentRecord,
  type DevicePositionFilter,
  type DevicePositionRecord,
  deleteDashboard,
  findDashboard,
  insertDashboard,
  listDashboards,
  listDevicePositions,
  listDevicePositionsJson,
  readCurrentValuesOfDevices,
  replaceWidgets,
  updateDashboard,
  type WidgetInput,
  type WidgetRecord,
} from './repositories/dashboards';
export {
  COMPANY_CHANGED_CHANNEL,
  DEVICE_CHANGED_CHANNEL,
  findIngestCompany,
  findIngestDeviceByDevEui,
  findIngestDeviceByUuid,
  type IngestCompany,
  type IngestDevice,
} from './repositories/device-credentials';
export {
  DEVICE_STATUS_COLUMNS,
  type DeviceCurrentRow,
  type DeviceStatusRow,
  type TimedValue,
  updateDevicePositions,
  upsertDeviceStateRows,
} from './repositories/device-current';
export {
  type CurrentValuesRecord,
  countDeviceData,
  countDeviceDataOfDevice,
  type DataPointRecord,
  readCurrentValues,
  readDeviceData,
  readDeviceDataUpTo,
  readLastDeviceRecord,
} from './repositories/device-data';
export {
  BUCKET_ORIGIN,
  type DataBucketRecord,
  type DataRange,
  type FieldStats,
  readDeviceDataBuckets,
} from './repositories/device-data-buckets';
export {
  dropExpiredDeviceDataChunks,
  effectiveDataRetentionDays,
  type PurgeExpiredDeviceDataOptions,
  type PurgeExpiredDeviceDataResult,
  purgeExpiredDeviceData,
} from './repositories/device-data-retention';
export {
  type ClosedBucketCache,
  canRollUp,
  type KeptBuckets,
  ROLLUP_BASE_SECONDS,
  ROLLUP_BUCKET_SECONDS,
  ROLLUP_CLOSED_AFTER_MS,
  ROLLUPS_CHANGED_CHANNEL,
  readDeviceDataBucketsRolledUp,
} from './repositories/device-data-rollups';
export {
  buildRollupsAhead,
  type RollupsAheadResult,
} from './repositories/device-data-rollups-ahead';
export {
  type DerivedDataRow,
  type DeviceDataRow,
  type IngestBatchRows,
  type InsertDeviceDataOptions,
  insertDeviceDataRows,
  messageHash,
  upsertDerivedData,
  writeIngestBatch,
} from './repositories/device-data-writes';
export {
  type DeviceByIdentifier,
  findDevicesByIdentifiers,
  groupIdsByName,
  type ImportedDevice,
  writeImportedDevices,
} from './repositories/device-import';
export {
  type BatteryRange,
  DEVICE_LIST_CHANGED_CHANNEL,
  DEVICE_MAP_CHANGED_CHANNEL,
  DEVICE_SORT_COLUMNS,
  type DeviceGroupRef,
  type DeviceListFilter,
  type DeviceListRecord,
  type DeviceSortColumn,
  listDevicePinColumnsJson,
  listDevices,
  listDevicesJson,
  listSimulatableDevices,
  type SimulatableDeviceRecord,
} from './repositories/device-list';
export {
  type DeviceLogQuery,
  type DeviceLogRecord,
  type DeviceLogRow,
  findRecordedJobs,
  findRecordedJobsSince,
  insertDeviceLogRows,
  listDeviceLogs,
} from './repositories/device-logs';
export { DeviceSeriesCache, type SeriesFields, seriesCacheOf } from './repositories/device-series-cache';
export {
  type DeviceChanges,
  type DeviceRecord,
  deviceExists,
  findDevice,
  groupExists,
  type ReassignmentSummary,
  reassignDevice,
  setDeviceCredentialsHash,
  updateDevice,
} from './repositories/devices';
export {
  type DownlinkOutcomeRow,
  type DownlinkRecord,
  type DownlinkTargetRecord,
  expireUnansweredDownlinks,
  findDownlinkTarget,
  insertQueuedDownlink,
  listDownlinks,
  markDownlinkSent,
  type QueuedDownlink,
  TTS_DOWNLINK_CORRELATION_PREFIX,
  updateDownlinkOutcomes,
} from './repositories/downlinks';
export {
  type CatalogueRecord,
  deleteCatalogueEntry,
  deleteFarmingField,
  deleteParcel,
  ensureCatalogueEntry,
  type FarmingCatalogue,
  type FarmingFieldRecord,
  type FarmingFieldValues,
  type FieldDeviceRecord,
  type FieldParcelRef,
  findCatalogueEntryByCode,
  findFarmingField,
  findParcel,
  insertFarmingField,
  insertParcel,
  listCatalogue,
  listFarmingFields,
  listFieldDevices,
  listParcels,
  lockCompanyFarming,
  ownedParcelIds,
  type ParcelRecord,
  type ParcelValues,
  refreshFieldSizes,
  setFieldDevices,
  setFieldParcels,
  updateCatalogueEntry,
  updateFarmingField,
  updateParcel,
} from './repositories/farming';
export {
  fieldOfDevice,
  findOpenTaskOfRule,
  findTask,
  insertTask,
  isCompanyUser,
  listTasks,
  ownedFieldIds,
  type TaskColumns,
  type TaskEvent,
  type TaskFilter,
  type TaskRecord,
  type TaskView,
  updateTask,
} from './repositories/farming-tasks';
export { type FirstAdminOutcome, insertFirstSuperAdmin } from './repositories/first-admin';
export {
  deleteGroup,
  findGroup,
  type GroupRecord,
  groupNameTaken,
  insertGroup,
  listGroups,
  lockCompanyGroups,
  ownedDeviceIds,
  setGroupDevices,
  updateGroup,
} from './repositories/groups';
export {
  countActiveIntegrationTokens,
  findIntegrationTokenByHash,
  INTEGRATION_TOKEN_CHANGED_CHANNEL,
  INTEGRATION_TOKEN_KINDS,
  type IngestIntegrationToken,
  type IntegrationTokenKind,
  type IntegrationTokenRecord,
  insertIntegrationToken,
  listIntegrationTokens,
  revokeIntegrationToken,
  touchIntegrationToken,
} from './repositories/integration-tokens';
export {
  claimJobKeyRows,
  completeJobKeys,
  insertJobKeys,
  type JobKeyClaimRow,
  purgeExpiredJobKeys,
  releaseJobKeys,
} from './repositories/job-keys';
export {
  type PurgeExpiredLogsOptions,
  purgeExpiredLogs,
  RETAINED_LOGS,
  type RetainedLog,
} from './repositories/log-retention';
export {
  countMessages,
  deleteMessage,
  insertSystemMessage,
  listMessages,
  type MessageCountsRecord,
  type MessageRecord,
  markMessageRead,
} from './repositories/messages';
export {
  deleteNetworkServer,
  findNetworkServer,
  getNetworkServer,
  NETWORK_SERVER_KINDS,
  type NetworkServerAccess,
  type NetworkServerKind,
  type NetworkServerRecord,
  saveNetworkServer,
} from './repositories/network-servers';
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
  findParkingAlarmActionRefs,
  listParkingAlarmActions,
  type ParkingAlarmActionRef,
  saveParkingAlarmActions,
} from './repositories/parking-alarm-rules';
export {
  deleteParkingArea,
  findParkingArea,
  insertParkingArea,
  listParkingAreas,
  listParkingCountSamples,
  lockCompanyParking,
  type ParkingAreaFields,
  type ParkingAreaRecord,
  type ParkingBayRecord,
  type ParkingCountSampleRow,
  type ParkingDeviceCandidate,
  type ParkingStayStats,
  parkingDeviceCandidates,
  parkingStayStats,
  setParkingBays,
  updateParkingArea,
} from './repositories/parking-areas';
export {
  applyParkingReadings,
  type ParkingUplink,
  type RaisedParkingAlarm,
  recountParkingAreas,
  refreshParkingOnTimer,
} from './repositories/parking-readings';
export {
  type ActionDeliveryRecord,
  type ActionDeliveryRequest,
  findActionDeliveries,
  loadCompanyActionDeliveries,
  type RuleActionDeliveryRow,
} from './repositories/rule-action-deliveries';
export {
  type DeviceRef,
  loadRulesWorkerDevices,
  lockDeviceRules,
  lockDeviceSensorChecks,
  lockDeviceVirtualFields,
  lockRulesWorkerBatch,
  lockTimerWork,
  type RulesWorkerAction,
  type RulesWorkerBatchInputs,
  type RulesWorkerDevice,
  type RulesWorkerRule,
  type RulesWorkerSensorCheck,
  type RulesWorkerVirtualField,
  type RuleVersionRow,
  type StateRow,
  saveRuleStates,
  saveSensorCheckStates,
  saveVirtualFieldStates,
  type TimerWork,
} from './repositories/rule-state';
export {
  deleteRule,
  existingRuleIds,
  insertRule,
  listDeviceRules,
  type RuleActionRecord,
  type RuleActionType,
  type RuleActionValues,
  type RuleRecord,
  type RuleTriggerColumn,
  type RuleValues,
  renameRuleDataField,
  replaceRuleActions,
  updateRule,
} from './repositories/rules';
export {
  announceLoginFailures,
  insertResetTokenWithinCap,
  type LoginFailuresNotice,
  rotateSessionId,
} from './repositories/security';
export {
  deleteSensorCheck,
  insertSensorCheck,
  listSensorChecks,
  renameSensorCheckDataField,
  type SensorCheckKindColumn,
  type SensorCheckRecord,
  type SensorCheckValues,
  updateSensorCheck,
} from './repositories/sensor-checks';
export {
  type AuditEvent,
  deleteExpiredSessions,
  deleteSession,
  deleteUserSessions,
  findLiveSession,
  insertSession,
  type NewSession,
  recordAuditEvent,
  type SessionRecord,
  setSessionImpersonation,
  touchSession,
} from './repositories/sessions';
export { languageOfAddress } from './repositories/text-languages';
export {
  findTtsDownlinkRoute,
  saveTtsDownlinkRoute,
  type TtsDownlinkRoute,
} from './repositories/tts-downlink-routes';
export {
  consumePasswordResetToken,
  countMainUsers,
  findPasswordResetToken,
  findUserById,
  findUserForLogin,
  findUserSecret,
  insertPasswordResetToken,
  insertUser,
  isEmailRegistered,
  listUsers,
  type NewUser,
  type PasswordResetTokenState,
  recordUserLogin,
  setUserPassword,
  softDeleteUser,
  type UserChanges,
  type UserRecord,
  type UserWithSecret,
  updateUser,
} from './repositories/users';
export {
  findVirtualDeviceDefinition,
  findVirtualDevicesOfInputs,
  insertVirtualDevice,
  mergeVirtualFieldCurrent,
  upsertVirtualCurrent,
  type VirtualDeviceInput,
  type VirtualDeviceRecord,
  type VirtualDevicesOfInputs,
  type VirtualFieldDefinition,
} from './repositories/virtual-devices';
export {
  deleteVirtualField,
  insertVirtualField,
  listVirtualFields,
  updateVirtualField,
  type VirtualFieldRecord,
  type VirtualFieldValues,
} from './repositories/virtual-fields';
// water associations (issue #26)
export {
  type CompanyCard,
  companyCards,
  countNwaFigures,
  decideNwaRequest,
  deleteNwaMember,
  findNwaRole,
  findNwaSettings,
  findPendingNwaRequest,
  insertNwaMember,
  insertNwaRequest,
  isNwaCompany,
  listAllNwaIds,
  listNwaDirectory,
  listNwaMembers,
  listNwaRolesOf,
  listPendingNwaIdsOf,
  listPendingNwaRequests,
  type NwaCounts,
  type NwaMemberRecord,
  type NwaRequestRecord,
  type NwaRole,
  type NwaSettingsRecord,
  saveMemberAllowance,
  saveNwaSettings,
  setNwaMemberAdmin,
} from './repositories/water-associations';
export {
  deleteDeviceShare,
  findSharedDevice,
  listDeviceShares,
  listSharedDevices,
  type MeterReading,
  readMeterReadings,
  type SharedDeviceRecord,
  updateSharedDeviceUsage,
  upsertDeviceShare,
} from './repositories/water-shared-devices';
export {
  claimUsageWarning,
  findWarningRecipient,
  findWaterWarning,
  insertWaterWarningMessage,
  listControlValves,
  listWarningRecipients,
} from './repositories/water-warnings';
export {
  backfillChunks,
  type RollupBuilder,
  type RollupBuilderOptions,
  startRollupBuilder,
} from './rollup-builder';
export { type ReadOptions, readAsTenant, TENANT_ROLE, withTenant } from './tenant';
