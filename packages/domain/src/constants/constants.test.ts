import { describe, expect, it } from 'vitest';
import { hasModule, isModuleName, isRole, isSuperAdminCompany, SUPER_ADMIN_COMPANY_ID } from './access';
import { ACTION_COMMAND_IDS, parseActionCommand } from './action-commands';
import { DEVICE_STATES, DEVICE_TYPES, isDeviceState, isDeviceType, SENSOR_TYPE_CODES } from './devices';
import { DEVICE_LOG_LEVEL, LOG_LEVELS, logLevelName } from './log-levels';
import { CLICK_TYPES, CONDITION_OPERATORS, isConditionOperator, NOTIFICATION_CHANNELS } from './rules';
import * as session from './session';
import { PARKING_AREA_ICONS, parkingAreaTypeLabel } from './ui';

describe('constants of spec sections 3, 6 and 9', () => {
  it('lists the seven device types and five states', () => {
    expect(DEVICE_TYPES).toHaveLength(7);
    expect(isDeviceType('nbiot_weatherstation')).toBe(true);
    expect(isDeviceType('nbiot_weather')).toBe(false);
    expect(DEVICE_STATES).toEqual(['ok', 'maintenance', 'lost', 'broken', 'disposed']);
    expect(isDeviceState('disposed')).toBe(true);
    expect(isDeviceState('gone')).toBe(false);
  });

  it('keeps the sensor type codes 8 and 1024 and click types 1, 2, 4', () => {
    expect(SENSOR_TYPE_CODES).toEqual({ PARKINGSENSOR: 8, AI_PARKINGSENSOR: 1024 });
    expect(CLICK_TYPES).toEqual({ single: 1, double: 2, long: 4 });
  });

  it('knows operators, channels, roles and modules', () => {
    expect(CONDITION_OPERATORS).toEqual(['lte', 'gte', 'eq', 'in', 'out', 'rie', 'fae']);
    expect(isConditionOperator('rie')).toBe(true);
    expect(isConditionOperator('lt')).toBe(false);
    expect(NOTIFICATION_CHANNELS).toContain('http');
    expect(NOTIFICATION_CHANNELS).toContain('voice_message');
    expect(isRole('ROLE_MAINUSER')).toBe(true);
    expect(isRole('ROLE_USER')).toBe(false);
    expect(isModuleName('paid_messaging')).toBe(true);
    expect(isModuleName('billing')).toBe(false);
  });

  it.each([
    [1, [], 'parking', true],
    [2, [], 'parking', false],
    [2, ['parking'], 'parking', true],
    [2, ['farming'], 'parking', false],
  ] as const)('company %i with modules %j has %s: %s', (companyId, licensed, module, expected) => {
    expect(hasModule(companyId, licensed, module)).toBe(expected);
  });

  it('treats company 1 as super admin', () => {
    expect(SUPER_ADMIN_COMPANY_ID).toBe(1);
    expect(isSuperAdminCompany(1)).toBe(true);
    expect(isSuperAdminCompany(2)).toBe(false);
  });

  it('keeps the section 9 numbers', () => {
    expect(session.SESSION_DURATION).toBe(7200);
    expect(session.SESSION_REMINDER).toBe(60);
    expect(session.IDLE_TIMEOUT_SECONDS).toBe(300);
    expect(session.AUTO_LOGOUT_MINUTES).toBe(15);
    expect(session.DEFAULT_MAP_CENTER).toEqual({ latitude: 48.041477, longitude: 7.576644 });
    expect(session.MIN_PASSWORD_LENGTH).toBe(10);
    expect(session.DEFAULT_PHONE_COUNTRY).toBe('DE');
    expect(session.MOBILE_BREAKPOINT_PX).toBe(991);
    expect(session.TOAST_LIFE_MS).toBe(10_000);
    expect(session.CSRF_REDIRECT_DELAY_MS).toBe(3000);
    expect(session.STALE_DATA_HOURS).toBe(8);
    expect(session.VERSION_DISPLAY_LENGTH).toBe(8);
    expect(session.VERSION_UNKNOWN).toHaveLength(8);
    expect(session.LOGIN_BACKGROUND_COUNT).toBe(9);
    expect(session.CONTENT_LANGUAGES).toEqual(['de', 'en', 'es', 'fr', 'pl', 'ro', 'uk']);
    expect(session.TRANSLATION_TARGET_LANGUAGES).toHaveLength(23);
    expect(session.ADDRESS_COUNTRIES).toEqual(['DE', 'CH', 'AT', 'FR']);
  });

  it('names the four parking icons', () => {
    expect(Object.keys(PARKING_AREA_ICONS)).toEqual(['PS', 'TP', 'PU', 'PG']);
    expect(parkingAreaTypeLabel('FIX')).toBe('fix');
    expect(parkingAreaTypeLabel('AI')).toBe('ai');
  });
});

describe('logLevelName (0 and 1 as 2, index modulo 7)', () => {
  it.each([
    [0, 'critical'],
    [1, 'critical'],
    [2, 'critical'],
    [3, 'error'],
    [4, 'warning'],
    [5, 'info'],
    [6, 'debug'],
    [7, 'emergency'],
    [8, 'alert'],
    [9, 'critical'],
    [-1, 'debug'],
  ] as const)('%i -> %s', (level, name) => {
    expect(logLevelName(level)).toBe(name);
  });

  it('has seven levels from emergency to debug', () => {
    expect(LOG_LEVELS).toEqual(['emergency', 'alert', 'critical', 'error', 'warning', 'info', 'debug']);
  });
});

describe('action command catalogue', () => {
  it('covers the seven commands of spec section 3 with timed variants', () => {
    expect(ACTION_COMMAND_IDS).toEqual([
      'reset_counter',
      'switch_digital_output',
      'switch_digital_output_timed',
      'switch_relay_output',
      'switch_relay_output_timed',
      'switch_solenoid_valve',
      'reboot',
      'request_uplink',
      'set_reporting_interval',
    ]);
  });

  it.each([
    [{ command: 'reboot' }, true, undefined],
    [{ command: 'reset_counter', counter: 4 }, true, undefined],
    [{ command: 'reset_counter', counter: 5 }, false, 'counter'],
    [{ command: 'switch_relay_output', output: 2, on: true }, true, undefined],
    [{ command: 'switch_relay_output', output: 3, on: true }, false, 'output'],
    [{ command: 'switch_relay_output', output: 1, on: 'yes' }, false, 'on'],
    [{ command: 'switch_digital_output_timed', output: 4, seconds: 30 }, true, undefined],
    [{ command: 'switch_digital_output_timed', output: 4, seconds: 0.5 }, false, 'seconds'],
    [{ command: 'switch_solenoid_valve', valve: 4, on: false }, true, undefined],
    [{ command: 'switch_solenoid_valve', valve: 5, on: false }, false, 'valve'],
    [{ command: 'set_reporting_interval', minutes: 15 }, true, undefined],
    [{ command: 'set_reporting_interval', minutes: 0 }, false, 'minutes'],
    [{ command: 'self_destruct' }, false, 'command'],
    [{ command: 'toString' }, false, 'command'],
    [null, false, 'command'],
  ])('%j -> ok %s', (input, ok, parameter) => {
    const result = parseActionCommand(input);
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.parameter).toBe(parameter);
    else expect(result.value).toEqual(input);
  });
});

describe('DEVICE_LOG_LEVEL (what writers store in device_logs.level)', () => {
  it.each(Object.entries(DEVICE_LOG_LEVEL))('%s is stored as a number read back as %s', (name, level) => {
    expect(logLevelName(level)).toBe(name);
  });
});
