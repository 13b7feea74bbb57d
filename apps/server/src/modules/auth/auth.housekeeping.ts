/**
 * Hourly removal of long-expired verification codes, reset links and refresh tokens, so the
 * auth tables do not grow forever. Idempotent: several server processes may run it.
 */
import type { FastifyInstance } from 'fastify';
import { deleteExpiredAuthRecords } from './auth.repository.ts';

const INTERVAL_MS = 60 * 60 * 1000;
const GRACE_DAYS = 1;

export function scheduleAuthHousekeeping(app: FastifyInstance): void {
  const run = async () => {
    try {
      const removed = await deleteExpiredAuthRecords(app.database.db, GRACE_DAYS);
      app.log.debug({ removed }, 'expired auth records removed');
    } catch (error) {
      app.log.error({ err: error }, 'auth housekeeping failed');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => void run(), INTERVAL_MS);
    timer.unref();
    await run();
  });
  app.addHook('onClose', (_instance, done) => {
    if (timer !== undefined) clearInterval(timer);
    done();
  });
}
