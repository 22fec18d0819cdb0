export type { Db, Queryable, QueryResult } from './db';
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
export { openPglite, type PgliteOptions } from './pglite';
export { openPostgres, type PostgresOptions } from './postgres';
export * from './repositories/companies';
export * from './repositories/countries';
export * from './repositories/device-data';
export * from './repositories/devices';
export * from './repositories/devices-ingest';
export * from './repositories/integration-tokens';
export * from './repositories/sessions';
export * from './repositories/users';
export { TENANT_ROLE, withTenant } from './tenant';
