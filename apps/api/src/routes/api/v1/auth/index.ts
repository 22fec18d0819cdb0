/**
 * /api/v1/auth: login, logout, forgot and reset password. These answer without a session; CSRF is still
 * checked on every POST (the pre-session token before login).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CurrentUserPayload,
  Done,
  ForgotPasswordBody,
  LoginBody,
  ResetPasswordBody,
  responses,
} from '@iot/contracts';
import { deleteSession, recordAuditEvent } from '@iot/db';
import { apiError, tooManyRequests } from '../../../../lib/errors';
import { sha256 } from '../../../../lib/tokens';
import { clearSessionCookies, SESSION_COOKIE, setSessionCookies } from '../../../../plugins/session';
import { logIn } from '../../../../services/log-in';
import { requestPasswordReset } from '../../../../services/request-password-reset';
import { changeOwnPassword, resetPasswordWithToken } from '../../../../services/reset-password';
import { presentCurrentUser } from '../core/user/present';

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { deps } = app;

  app.post(
    '/login',
    {
      config: {
        rateLimit: {
          max: deps.rateLimits.loginPerAddress.max,
          timeWindow: deps.rateLimits.loginPerAddress.windowMs,
          keyGenerator: (request) => `login:${request.ip}`,
          errorResponseBuilder: () => tooManyRequests(2),
        },
      },
      schema: {
        tags: ['auth'],
        operationId: 'logIn',
        security: [],
        summary: 'Sign in with email and password; answers the user (spec section 7)',
        body: LoginBody,
        response: responses(CurrentUserPayload, [2, 74, 75, 422], { public: true }),
      },
    },
    async (request, reply) => {
      const previous = request.cookies[SESSION_COOKIE];
      const { session, user, company } = await logIn(deps, {
        email: request.body.email.trim(),
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        previousSessionId: previous ? sha256(previous) : null,
      });
      setSessionCookies(reply, session.token, session.csrfToken);
      return {
        payload: presentCurrentUser({ user, company, realCompanyId: company.id, impersonated: false }),
      };
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        operationId: 'logOut',
        security: [],
        summary: 'Sign out: revokes the session',
        response: responses(Done, [], { public: true }),
      },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await deleteSession(deps.db, sha256(token));
      if (request.auth) {
        await recordAuditEvent(deps.db, {
          companyId: request.auth.realCompanyId,
          userId: request.auth.user.id,
          action: 'auth.logout',
        });
      }
      clearSessionCookies(reply);
      return { payload: { ok: true } };
    },
  );

  app.post(
    '/forgot-password',
    {
      config: {
        rateLimit: {
          max: deps.rateLimits.forgotPerAddress.max,
          timeWindow: deps.rateLimits.forgotPerAddress.windowMs,
          keyGenerator: (request) => `forgot:${request.ip}`,
          errorResponseBuilder: () => tooManyRequests(),
        },
      },
      schema: {
        tags: ['auth'],
        operationId: 'requestPasswordReset',
        security: [],
        summary: 'Mail a single-use reset link; the answer is the same whether or not the address exists',
        body: ForgotPasswordBody,
        response: responses(Done, [422], { public: true }),
      },
    },
    async (request) => {
      try {
        await requestPasswordReset(deps, request.body.email.trim());
      } catch (err) {
        // A failing mail server must not turn into a different answer for existing addresses.
        request.log.error({ err }, 'password reset mail failed');
      }
      return { payload: { ok: true } };
    },
  );

  app.post(
    '/reset-password',
    {
      schema: {
        tags: ['auth'],
        operationId: 'resetPassword',
        security: [],
        summary: 'Set a new password with an emailed token, or for the signed-in user',
        body: ResetPasswordBody,
        response: responses(Done, [31, 67, 71, 62, 2, 422], { public: true }),
      },
    },
    async (request) => {
      const body = request.body;
      const confirmation =
        body.password_confirmation === undefined ? {} : { passwordConfirmation: body.password_confirmation };
      if (body.token) {
        await resetPasswordWithToken(deps.db, {
          token: body.token,
          password: body.password,
          ...confirmation,
        });
      } else {
        if (!request.auth) throw apiError(request.authFailure ?? 'EMAIL_TOKEN_MISSING');
        await changeOwnPassword(deps.db, request.auth, {
          password: body.password,
          ...confirmation,
          ...(body.current_password === undefined ? {} : { currentPassword: body.current_password }),
        });
      }
      return { payload: { ok: true } };
    },
  );
};

export default authRoutes;
