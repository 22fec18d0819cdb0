/** Pieces every `/api/v1` route shares: the success envelope, the error body and its documentation. */
import { errorByCode } from '@iot/domain';
import { type Static, type TObject, type TSchema, Type } from 'typebox';

export const ErrorBody = Type.Object(
  { code: Type.Integer(), message: Type.String(), details: Type.Optional(Type.Unknown()) },
  { description: 'code: API code of spec section 8; message: api.response-<code> or detail' },
);
export type ErrorResponse = Static<typeof ErrorBody>;

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** What a delete answers: the id of what is gone. */
export const DeletedPayload = Type.Object({ id: Type.Integer() });
export type Deleted = Static<typeof DeletedPayload>;

/** NOT_LOGGED_IN, USER_WITHOUT_COMPANY, COMPANY_BLOCKED: the session guard's answers on every secured route. */
const SESSION_CODES = [76, 74, 75] as const;

/**
 * The documented failures of a route: one response per HTTP status, its description listing the
 * catalogue codes (spec section 8) the route answers with that status. Every route also answers other
 * 4xx (a rate limit's 429, a CSRF 419) and 5xx with the same body.
 */
export function errorResponses(codes: readonly number[]) {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const definition = errorByCode(code);
    if (!definition) throw new Error(`error code ${code} is not in the catalogue`);
    const lines = byStatus.get(definition.status) ?? [];
    if (!lines.includes(`${code}: ${definition.en}`)) lines.push(`${code}: ${definition.en}`);
    byStatus.set(definition.status, lines);
  }
  const documented: Record<number, typeof ErrorBody> = {};
  for (const [status, lines] of [...byStatus].sort(([a], [b]) => a - b))
    documented[status] = Type.Object(ErrorBody.properties, { description: `code ${lines.join(' / code ')}` });
  return { ...documented, '4xx': ErrorBody, '5xx': ErrorBody };
}

export interface ResponsesOptions {
  /** Reachable without a session: no NOT_LOGGED_IN. */
  public?: boolean;
  /** Describes the 200 answer (default: the payload schema's description, else "Success"). */
  description?: string;
}

/** Responses of a route: 200 with `{ payload }`, the given error codes, errors as `{ code, message }`. */
export function responses<T extends TSchema>(
  payload: T,
  codes: readonly number[] = [],
  options: ResponsesOptions = {},
): { 200: TObject<{ payload: T }>; '4xx': typeof ErrorBody; '5xx': typeof ErrorBody } {
  const own = (payload as { description?: unknown }).description;
  const description = options.description ?? (typeof own === 'string' ? own : 'Success');
  return {
    200: Type.Object({ payload }, { description }),
    ...errorResponses(options.public ? codes : [...SESSION_CODES, ...codes]),
  };
}
