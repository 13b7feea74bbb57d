/** /api/auth/*: thin routes over the auth service (schemas from @rarelens/contract). */
import {
  LoginBody,
  LoginResponse,
  LogoutBody,
  MessageResponse,
  Messages,
  PasswordResetBody,
  PasswordResetRequestBody,
  PasswordResetTokenResponse,
  RefreshBody,
  RegisterBody,
  RegisterResponse,
  ResendCodeBody,
  ResetTokenParam,
  SessionResponse,
  TokenPair,
  VerifyBody,
  VerifyResponse,
} from '@rarelens/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { Errors } from '../../errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { presentUser } from '../users/index.ts';
import type { SessionCookies } from './auth.cookies.ts';
import { presentLogin, presentTokenPair } from './auth.presenter.ts';
import type { AuthService } from './auth.service.ts';
import { originOf } from '../activity/index.ts';

export interface AuthRoutesOptions {
  authService: AuthService;
  cookies: SessionCookies;
  /** Requests per minute and IP on every auth route. */
  rateLimitPerMinute: number;
}

/**
 * Per account (the e-mail in the body), on top of the per-IP limit, for the routes that guess or
 * mail: sign-in, verification codes, reset requests. Many addresses cannot share out the guesses
 * against one account, and nobody can flood one inbox.
 */
export const ACCOUNT_RATE_LIMIT = { max: 20, timeWindow: '15 minutes' } as const;

/** The refresh token may come from the cookie instead, so the body is optional here (Fastify gives null). */
const OptionalRefreshBody = RefreshBody.partial().nullish();
const OptionalLogoutBody = LogoutBody.nullish();

export const authRoutes: FastifyPluginCallbackZod<AuthRoutesOptions> = (
  app,
  { authService, cookies, rateLimitPerMinute },
  done,
) => {
  // Every route of this plugin is rate limited per IP.
  const config = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };
  // Runs after validation (preHandler), so the key is the normalised (lower-cased) address.
  // (createRateLimit, not rateLimit: the plugin runs one rateLimit hook per request, the per-IP one.)
  const accountLimiter = app.createRateLimit({
    ...ACCOUNT_RATE_LIMIT,
    keyGenerator: (request) => {
      const email = (request.body as { email?: unknown } | null)?.email;
      return `account:${typeof email === 'string' ? email : ''}`;
    },
  });
  const perAccount = async (request: FastifyRequest): Promise<void> => {
    const verdict = await accountLimiter(request);
    // isAllowed is true only for allow-listed keys; otherwise the count decides.
    if (!verdict.isAllowed && verdict.isExceeded) throw Errors.rateLimited();
  };

  /**
   * A route that mails the address in its body (a new verification code, a password-reset link):
   * limited per account; once `mail` is done it answers `message`.
   */
  const mailingRoute = (url: string, body: typeof ResendCodeBody, mail: (email: string) => Promise<void>, message: string) =>
    app.post(url, { config, preHandler: perAccount, schema: { body, response: { 200: MessageResponse } } }, async (request) => {
      await mail(request.body.email);
      return { message };
    });

  app.post(
    '/register',
    { config, schema: { body: RegisterBody, response: { 201: RegisterResponse } } },
    async (request, reply) => {
      const user = await authService.register(request.body);
      return reply.status(201).send({ user: presentUser(user) });
    },
  );

  app.post(
    '/verify',
    { config, preHandler: perAccount, schema: { body: VerifyBody, response: { 200: VerifyResponse } } },
    async (request) => {
      const user = await authService.verifyEmail(request.body.email, request.body.code);
      return { user: presentUser(user), message: Messages.emailVerified };
    },
  );

  mailingRoute('/resend-code', ResendCodeBody, (email) => authService.resendCode(email), Messages.codeSent);

  app.post(
    '/login',
    { config, preHandler: perAccount, schema: { body: LoginBody, response: { 200: LoginResponse } } },
    async (request, reply) => {
      const session = await authService.login(request.body.email, request.body.password, originOf(request));
      cookies.set(reply, session);
      return presentLogin(session);
    },
  );

  app.get(
    '/session',
    { onRequest: app.authenticate, schema: { response: { 200: SessionResponse } } },
    (request) => ({ user: presentUser(currentUser(request)) }),
  );

  app.post(
    '/refresh',
    { config, schema: { body: OptionalRefreshBody, response: { 200: TokenPair } } },
    async (request, reply) => {
      const refreshToken = cookies.readRefreshToken(request, request.body?.refreshToken);
      if (refreshToken === undefined) throw Errors.unauthorized();
      try {
        const session = await authService.refresh(refreshToken);
        cookies.set(reply, session);
        return presentTokenPair(session);
      } catch (error) {
        cookies.clear(reply);
        throw error;
      }
    },
  );

  app.post(
    '/logout',
    { config, schema: { body: OptionalLogoutBody, response: { 200: MessageResponse } } },
    async (request, reply) => {
      const refreshToken = cookies.readRefreshToken(request, request.body?.refreshToken);
      const accessToken = cookies.readAccessToken(request);
      // The cookies go whatever happens: a client asking to log out must end up logged out.
      cookies.clear(reply);
      await authService.logout(refreshToken, accessToken);
      return { message: Messages.loggedOut };
    },
  );

  mailingRoute('/password-reset', PasswordResetRequestBody, (email) => authService.requestPasswordReset(email), Messages.emailSent);

  app.get(
    '/password-reset/:token',
    { config, schema: { params: ResetTokenParam, response: { 200: PasswordResetTokenResponse } } },
    async (request) => {
      const user = await authService.checkResetToken(request.params.token);
      return { email: user.email };
    },
  );

  app.post(
    '/password-reset/:token',
    {
      config,
      schema: {
        params: ResetTokenParam,
        body: PasswordResetBody,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await authService.resetPassword(request.params.token, request.body.password, originOf(request));
      return { message: Messages.passwordChanged };
    },
  );
  done();
};
