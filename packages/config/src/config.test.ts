import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

describe('loadConfig', () => {
  it('gives the embedded defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PROFILE: 'embedded',
      PORT: 8080,
      DATA_DIR: './data',
      DEMO_DATA: true,
      COOKIE_SECURE: false,
      HTTP_ACTIONS_ALLOW_PRIVATE: false,
      DOWNLINK_ACK_TIMEOUT_HOURS: 24,
      LOG_RETENTION_DAYS: 90,
      LOG_LEVEL: 'info',
      MQTT_CONNECT_TIMEOUT_SECONDS: 10,
      MQTT_MAX_CONNECTIONS: 50_000,
      MQTT_MAX_CONNECTIONS_PER_ADDRESS: 100,
      SESSION_MAX_AGE_HOURS: 12,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.MQTT_PORT).toBeUndefined(); // ingest uses 1883, or a free port when 1883 is taken
  });

  it('converts numbers and booleans from their string form', () => {
    const config = loadConfig({ PORT: '9090', DEMO_DATA: 'false', COOKIE_SECURE: 'true' });
    expect(config.PORT).toBe(9090);
    expect(config.DEMO_DATA).toBe(false);
    expect(config.COOKIE_SECURE).toBe(true);
  });

  it('ignores variables it does not know and empty values', () => {
    const config = loadConfig({ PATH: '/usr/bin', SMTP_URL: '' });
    expect(config).not.toHaveProperty('PATH');
    expect(config.SMTP_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PROFILE: 'cloud' }, 'PROFILE'],
    [{ DATABASE_URL: 'localhost:5432' }, 'DATABASE_URL'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ DOWNLINK_ACK_TIMEOUT_HOURS: '0' }, 'DOWNLINK_ACK_TIMEOUT_HOURS'],
    [{ DOWNLINK_ACK_TIMEOUT_HOURS: 'a day' }, 'DOWNLINK_ACK_TIMEOUT_HOURS'],
    [{ LOG_RETENTION_DAYS: '-1' }, 'LOG_RETENTION_DAYS'],
    [{ LOG_RETENTION_DAYS: '90d' }, 'LOG_RETENTION_DAYS'],
    [{ SESSION_MAX_AGE_HOURS: '0' }, 'SESSION_MAX_AGE_HOURS'],
    [{ MQTT_CONNECT_TIMEOUT_SECONDS: '0' }, 'MQTT_CONNECT_TIMEOUT_SECONDS'],
    [{ MQTT_MAX_CONNECTIONS: '0' }, 'MQTT_MAX_CONNECTIONS'],
    [{ MQTT_MAX_CONNECTIONS_PER_ADDRESS: 'many' }, 'MQTT_MAX_CONNECTIONS_PER_ADDRESS'],
    [{ PROFILE: 'distributed' }, 'DATABASE_URL: required in the distributed profile'],
  ])('rejects %j naming %s', (env, named) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(named);
  });

  it('accepts the distributed profile with a database URL', () => {
    const config = loadConfig({
      PROFILE: 'distributed',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/iot',
    });
    expect(config.PROFILE).toBe('distributed');
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/iot');
    expect(config.DATABASE_POOL_MAX).toBeUndefined();
  });

  it('keeps logs for good with LOG_RETENTION_DAYS=0', () => {
    expect(loadConfig({ LOG_RETENTION_DAYS: '0' }).LOG_RETENTION_DAYS).toBe(0);
  });

  it('reads the PostgreSQL pool size as a number', () => {
    expect(loadConfig({ DATABASE_POOL_MAX: '24' }).DATABASE_POOL_MAX).toBe(24);
  });

  it("reads ingest's device cache size, and refuses one too small to hold a gateway's devices", () => {
    expect(loadConfig({}).INGEST_DEVICE_CACHE_ENTRIES).toBeUndefined();
    expect(loadConfig({ INGEST_DEVICE_CACHE_ENTRIES: '500000' }).INGEST_DEVICE_CACHE_ENTRIES).toBe(500_000);
    expect(() => loadConfig({ INGEST_DEVICE_CACHE_ENTRIES: '10' })).toThrow(/INGEST_DEVICE_CACHE_ENTRIES/);
  });
});
