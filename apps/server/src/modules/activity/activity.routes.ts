/** GET /api/account/activity: the signed-in user's own activity log, newest first. */
import { ActivityQuery, ActivityResponse, ErrorCode } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { decodeActivityCursor, encodeActivityCursor, presentActivityEvent } from './activity.presenter.ts';
import type { ActivityService } from './activity.service.ts';

export const activityRoutes: FastifyPluginCallbackZod<{ activityService: ActivityService }> = (app, { activityService }, done) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/', { schema: { querystring: ActivityQuery, response: { 200: ActivityResponse } } }, async (request) => {
    const { cursor, limit } = request.query;
    const after = cursor === undefined ? undefined : decodeActivityCursor(cursor);
    if (after === null) throw new AppError(400, ErrorCode.badRequest, 'cursor: not a cursor returned by this list');
    const rows = await activityService.list(currentUser(request).id, limit + 1, after);
    const page = rows.slice(0, limit);
    return {
      events: page.map(presentActivityEvent),
      nextCursor: rows.length > limit ? encodeActivityCursor(page[page.length - 1]!) : null,
    };
  });
  done();
};
