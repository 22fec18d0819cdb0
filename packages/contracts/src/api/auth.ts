import { type Static, Type } from 'typebox';

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
  remember: Type.Optional(Type.Boolean()),
});

export const ForgotPasswordBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
});

/** With a token: the emailed link. Without: the signed-in user (forced reset, or with current_password). */
export const ResetPasswordBody = Type.Object({
  token: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 254 })),
  password: Type.String({ maxLength: 200 }),
  password_confirmation: Type.Optional(Type.String({ maxLength: 200 })),
  current_password: Type.Optional(Type.String({ maxLength: 200 })),
});

export const Done = Type.Object({ ok: Type.Boolean() });
export type Done = Static<typeof Done>;
