/** /api/account: the signed-in user's profile and password. */
import {
  AccountResponse,
  ChangePasswordBody,
  MessageResponse,
  Messages,
  UpdateAccountBody,
  UpdateAccountResponse,
} from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { currentSession, currentUser } from '../../plugins/auth.ts';
import { presentUser } from '../users/users.presenter.ts';
import type { AccountService } from './account.service.ts';
import { originOf } from '../activity/activity.presenter.ts';

export const accountRoutes: FastifyPluginCallbackZod<{ accountService: AccountService }> = (
  app,
  { accountService },
  done,
) => {
  // onRequest: a caller without a session gets 401 before any body validation.
  app.addHook('onRequest', app.authenticate);

  app.get('/', { schema: { response: { 200: AccountResponse } } }, (request) => ({
    user: presentUser(currentUser(request)),
  }));

  app.put(
    '/',
    { schema: { body: UpdateAccountBody, response: { 200: UpdateAccountResponse } } },
    async (request) => {
      const user = await accountService.updateProfile(currentUser(request), request.body);
      return { user: presentUser(user), message: Messages.updated };
    },
  );

  app.put(
    '/password',
    { schema: { body: ChangePasswordBody, response: { 200: MessageResponse } } },
    async (request) => {
      const { currentPassword, password } = request.body;
      await accountService.changePassword(
        currentUser(request),
        currentSession(request).sessionId,
        currentPassword,
        password,
        originOf(request),
      );
      return { message: Messages.updated };
    },
  );
  done();
};
