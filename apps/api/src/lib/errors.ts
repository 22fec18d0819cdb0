/**
 * The API raises errors of the domain catalogue (spec section 8, @iot/domain) only. The one addition is
 * the HTTP 429 answer of a rate limit, which the catalogue has no code for: it keeps the code of what was
 * limited (2 for login) and changes only the status.
 */
import { ApiError, apiError, ERRORS } from '@iot/domain';

export { ApiError, apiError };

export function tooManyRequests(code: number = ERRORS.BAD_REQUEST.code): ApiError {
  return new ApiError(code, 429, 'Too many attempts. Please try again later.');
}
