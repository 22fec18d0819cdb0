import { ERRORS, type ErrorCode, type ErrorDefinition, type ErrorName, errorByCode } from './catalogue';

/** Body of every failed API answer (architecture: `{ code, message }`, plus details for input errors). */
export interface ApiErrorBody {
  code: number;
  message: string;
  details?: unknown;
}

/**
 * An error with an API code from the catalogue. Route handlers and domain functions throw it; the
 * API's error handler turns it into `status` + `{ code, message, details }`. The message is the
 * catalogue's English text; the console shows its own translation of `api.response-<code>`.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly status: number;
  readonly details: unknown;

  constructor(code: number, status: number, message: string, details?: unknown) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details;
  }

  toBody(): ApiErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/**
 * Builds an ApiError from a catalogue name or code. An unknown code becomes code 0 (undefined
 * error, 500) so a typo never yields an answer without a catalogue entry.
 */
export function apiError(nameOrCode: ErrorName | ErrorCode, details?: unknown): ApiError {
  const definition: ErrorDefinition =
    typeof nameOrCode === 'number' ? (errorByCode(nameOrCode) ?? ERRORS.UNDEFINED) : ERRORS[nameOrCode];
  return new ApiError(definition.code, definition.status, definition.en, details);
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
