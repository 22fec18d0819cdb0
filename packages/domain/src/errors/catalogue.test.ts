import { describe, expect, it } from 'vitest';
import { ApiError, apiError, isApiError } from './api-error';
import { apiResponseKey, ERROR_DEFINITIONS, ERRORS, errorByCode, errorByName } from './catalogue';

// Every code spec section 8 lists, range ends included.
const SPEC_CODES = [
  0, 400, 401, 404, 422, 500, 41, 1, 2, 53, 62, 63, 64, 65, 73, 74, 75, 76, 77, 71, 31, 67, 68, 69, 54, 50100,
  50101, 50102, 50103, 9, 10, 19, 20, 26, 33, 42, 44, 58, 61, 10001, 10002, 37, 38, 39, 40, 70, 92, 93, 94,
  95, 50104, 50107, 45, 46, 47, 48, 49, 51, 50, 78, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 96, 97, 98,
  99, 4, 6, 7, 27, 28, 29, 72, 109, 20001, 20144, 20146, 40001, 40002, 40003, 40004, 40005, 40006, 40007,
  40008, 40009, 40010, 40011, 40012, 40013, 40014, 60011, 50109,
];

describe('error catalogue (spec section 8)', () => {
  it.each(SPEC_CODES)('code %i is defined with English and German text', (code) => {
    const definition = errorByCode(code);
    expect(definition).toBeDefined();
    expect(definition?.en.length).toBeGreaterThan(3);
    expect(definition?.de.length).toBeGreaterThan(3);
    expect(definition?.de).not.toBe(definition?.en);
  });

  it('has unique codes and names', () => {
    const codes = ERROR_DEFINITIONS.map((d) => d.code);
    const names = ERROR_DEFINITIONS.map((d) => d.name);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives the refusals the spec leaves without a code their own 403 codes from 90001 on', () => {
    // 90010 and up are the module issues' own ranges (water: 90050-90069, catalogue.water.test.ts).
    const own = ERROR_DEFINITIONS.filter((d) => d.code >= 90000 && d.code < 90010);
    expect(own.map((d) => d.code)).toEqual([90001, 90002, 90003, 90004, 90005, 90006, 90007, 90008, 90009]);
    for (const d of own) {
      expect(d.status).toBe(403);
      expect(d.name).toMatch(/^NO_PERMISSION_TO_/);
      expect(d.de).not.toBe(d.en);
    }
    expect(own.some((d) => SPEC_CODES.includes(d.code))).toBe(false);
  });

  it('keeps the client administration and external API codes within 90030..90049, worded in both languages', () => {
    const clients = ERROR_DEFINITIONS.filter((d) => d.code >= 90030 && d.code <= 90049);
    expect(clients.length).toBeGreaterThan(0);
    for (const d of clients) expect(d.de).not.toBe(d.en);
  });

  it('keeps the codec and virtual device codes within 90010..90029, refusals as 403', () => {
    const codecs = ERROR_DEFINITIONS.filter((d) => d.code >= 90010 && d.code <= 90029);
    expect(codecs.map((d) => d.name)).toContain('CODEC_DOES_NOT_LOAD');
    for (const d of codecs) if (d.name.startsWith('NO_PERMISSION_TO_')) expect(d.status).toBe(403);
  });

  it('keeps farming codes within 20001..20146 and parking within 40001..40014', () => {
    for (const { code } of ERROR_DEFINITIONS) {
      if (code >= 20000 && code < 30000) expect(code).toBeLessThanOrEqual(20146);
      if (code >= 40000 && code < 50000) expect(code).toBeLessThanOrEqual(40014);
    }
  });

  it.each([
    [76, 401, 'NOT_LOGGED_IN'],
    [77, 419, 'INVALID_CSRF_TOKEN'],
    [2, 401, 'LOGIN_FAILED'],
    [75, 403, 'COMPANY_BLOCKED'],
    [74, 403, 'USER_WITHOUT_COMPANY'],
    [64, 403, 'NO_PERMISSION_TO_CREATE_USER'],
    [54, 403, 'MAIN_USER_CANNOT_BE_OVERRIDDEN'],
    [73, 409, 'EMAIL_ALREADY_REGISTERED'],
    [10, 404, 'DEVICE_NOT_FOUND'],
    [10001, 404, 'DEVICE_DATA_NOT_FOUND'],
    [422, 422, 'INPUT_ERROR'],
    [500, 500, 'INTERNAL_ERROR'],
    [20144, 409, 'PARCEL_HAS_ASSIGNED_FIELDS'],
    [20146, 403, 'PARCEL_OTHER_COMPANY'],
    [40004, 403, 'PARKING_AREA_OTHER_COMPANY'],
    [40014, 422, 'NOT_A_PARKING_SENSOR'],
    [60011, 500, 'WATER_ASSOCIATION_LIST_FAILED'],
    [50109, 415, 'UNSUPPORTED_CONTENT_TYPE'],
  ] as const)('code %i answers HTTP %i as %s', (code, status, name) => {
    expect(errorByCode(code)).toMatchObject({ status, name });
    expect(errorByName(name).code).toBe(code);
  });

  it('uses only statuses an HTTP client understands', () => {
    for (const { status } of ERROR_DEFINITIONS)
      expect([400, 401, 403, 404, 409, 415, 419, 422, 429, 500, 502]).toContain(status);
  });

  it('returns undefined for a code the spec does not know', () => {
    expect(errorByCode(12345)).toBeUndefined();
  });

  it('builds the console key api.response-<code>', () => {
    expect(apiResponseKey(76)).toBe('api.response-76');
  });
});

describe('ApiError', () => {
  it('is built from a name with status, English message and details', () => {
    const error = apiError('DEVICE_NOT_FOUND', { id: 7 });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ code: 10, status: 404, message: 'Device not found.', details: { id: 7 } });
    expect(error.toBody()).toEqual({ code: 10, message: 'Device not found.', details: { id: 7 } });
  });

  it('is built from a code and leaves details out of the body when absent', () => {
    const error = apiError(77);
    expect(error.status).toBe(419);
    expect(error.toBody()).toEqual({ code: 77, message: ERRORS.INVALID_CSRF_TOKEN.en });
  });

  it('turns an unknown code into code 0 with status 500', () => {
    expect(apiError(999 as 0)).toMatchObject({ code: 0, status: 500 });
  });

  it('is not confused with other errors', () => {
    expect(isApiError(new Error('x'))).toBe(false);
  });
});
