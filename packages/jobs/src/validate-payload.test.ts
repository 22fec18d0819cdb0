import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { defineJob, JobPayloadError } from './types';
import { validatePayload } from './validate-payload';

const job = defineJob({
  name: 'test.payload',
  version: 1,
  payload: Type.Object(
    { deviceId: Type.Integer({ minimum: 1 }), field: Type.Union([Type.String(), Type.Null()]) },
    { additionalProperties: false },
  ),
  timeoutMs: 1000,
  retry: { attempts: 1, delayMs: 10 },
  idempotencyKey: (p) => String(p.deviceId),
});

describe('validatePayload', () => {
  it('returns a payload that fits the schema, every time it is asked', () => {
    for (const payload of [
      { deviceId: 1, field: 'temperature' },
      { deviceId: 7, field: null },
    ])
      expect(validatePayload(job, payload)).toBe(payload);
  });

  it('names each problem of a payload that does not fit', () => {
    let error: unknown;
    try {
      validatePayload(job, { deviceId: 0, field: 3, extra: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JobPayloadError);
    const problems = (error as JobPayloadError).problems;
    expect(problems.some((p) => p.startsWith('/deviceId:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('/field:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('/extra:'))).toBe(true);
    expect(problems.length).toBeLessThanOrEqual(5);
  });

  it('refuses what is not an object at all', () => {
    expect(() => validatePayload(job, null)).toThrow(JobPayloadError);
    expect(() => validatePayload(job, 'x')).toThrow(/payload of job test.payload is invalid/);
  });
});
