/** /api/account: the signed-in user's profile and password. */
import {
  AccountResponse,
  ChangePasswordBody,
  DeleteAccountBody,
  MessageResponse,
  Messages,
  UpdateAccountBody,
  UpdateAccountResponse,
} from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { currentSession, currentUser } from '../../plugins/auth.ts';
import { presentUser } from '../users/index.ts';
import type { AccountService } from './account.service.ts';
import { originOf } from '../activity/index.ts';
import type { SessionCookies } from '../auth/index.ts';
import { contentDisposition } from '../../http/content-disposition.ts';

export const accountRoutes: FastifyPluginCallbackZod<{ accountService: AccountService; cookies: SessionCookies }> = (
  app,
  { accountService, cookies },
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
  // Everything RareLens keeps about the user, as a JSON download.
  app.get('/export', async (request, reply) => {
    const data = await accountService.exportData(currentUser(request), originOf(request));
    const name = `rarelens-account-${data.exportedAt.slice(0, 10)}.json`;
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', contentDisposition(name))
      .header('cache-control', 'private, no-store')
      .send(JSON.stringify(data, null, 2));
  });

  // Deletes the account, its cases (files included) and everything else; ends the session.
  app.delete('/', { schema: { body: DeleteAccountBody, response: { 200: MessageResponse } } }, async (request, reply) => {
    await accountService.deleteAccount(currentUser(request), request.body.password);
    cookies.clear(reply);
    return { message: Messages.accountDeleted };
  });
  done();
};
