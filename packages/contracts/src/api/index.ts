// The `/api/v1` request and response schemas, one file per route folder of apps/api, and their
// `Static<>` types (the console imports the types only).
export * from './alarms';
export * from './auth';
export * from './clients';
export * from './common';
export * from './company';
export * from './dashboards';
export * from './device-data';
export * from './device-live';
export * from './devices';
export * from './downlinks';
export * from './farming';
export * from './groups';
export * from './integrations';
export * from './messages';
export * from './outbox';
export * from './platform';
export * from './reference';
export * from './rules';
export * from './sensor-checks';
export * from './user';
export * from './users';
export * from './virtual-fields';
