import { ApiError, apiError } from '@iot/domain';
import type { UplinkRefusal } from '../accept/uplink-gate.js';

/** 429 for a company over its uplinks per minute; the error handler sends its Retry-After. */
export class UplinkRateLimitedError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    const refusal = apiError('UPLINK_RATE_LIMITED', { retry_after_seconds: retryAfterSeconds });
    super(refusal.code, refusal.status, refusal.message, refusal.details);
  }
}

/** Answers of the HTTP front door that are not successes, with catalogue codes where one fits. */
export const ingestErrors = {
  unauthorized: () => apiError('UNAUTHORIZED'),
  unknownDevice: () => apiError('DEVICE_NOT_FOUND'),
  disposed: () => new ApiError(10, 404, 'Device is disposed and takes no uplinks.'),
  malformedJson: (detail: string) => new ApiError(400, 400, `Malformed JSON: ${detail}`),
  unstorable: (reason: string) => new ApiError(400, 400, `Uplink refused: ${reason}.`),
  tooLarge: (limit: number) => new ApiError(400, 413, `Body larger than ${limit} bytes.`),
  unsupportedType: () => apiError('UNSUPPORTED_CONTENT_TYPE'),
  input: (message: string) => new ApiError(422, 422, message),
  /** A refusal of the device's company (uplink-gate.ts). */
  company: (refusal: UplinkRefusal, retryAfterSeconds: number) =>
    refusal === 'rate_limited'
      ? new UplinkRateLimitedError(retryAfterSeconds)
      : new ApiError(
          75,
          403,
          refusal === 'company_blocked'
            ? "The company is blocked: its devices' uplinks are refused."
            : "The company has been deleted: its devices' uplinks are refused.",
          { reason: refusal },
        ),
};
