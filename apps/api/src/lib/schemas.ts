/** Schemas shared by every route: the success envelope and the error body. */
import { type TSchema, Type } from 'typebox';

export const ErrorBody = Type.Object(
  { code: Type.Integer(), message: Type.String(), details: Type.Optional(Type.Unknown()) },
  { description: 'code: API code of spec section 8; message: api.response-<code> or detail' },
);

/** Responses of a route: 200 with `{ payload }`, errors as `{ code, message }`. */
export function responses<T extends TSchema>(payload: T) {
  return {
    200: Type.Object({ payload }),
    '4xx': ErrorBody,
    '5xx': ErrorBody,
  };
}

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
