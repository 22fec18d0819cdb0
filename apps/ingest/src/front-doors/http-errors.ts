import { ApiError, apiError } from '@iot/domain';

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
};
