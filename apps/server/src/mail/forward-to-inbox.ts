/**
 * Public forms (contact, demo requests) are stored and e-mailed to the team inbox (the MAIL_FROM
 * address) in one transaction: a failed mail rolls the stored row back, so nothing is kept that
 * nobody was told about.
 */
import type { Database, Executor } from '../db/database.ts';
import { addressOf } from './address.ts';
import type { Mailer, MailMessage } from './mailer.ts';

export type ForwardToInbox = <R>(store: (tx: Executor) => Promise<R>, mail: (row: R) => Omit<MailMessage, 'to'>) => Promise<void>;

export function createInboxForwarder(deps: { database: Database; mailer: Mailer; mailFrom: string }): ForwardToInbox {
  const inbox = addressOf(deps.mailFrom);
  return async (store, mail) => {
    await deps.database.db.transaction(async (tx) => {
      const row = await store(tx);
      await deps.mailer.send({ to: inbox, ...mail(row) });
    });
  };
}

/** A public form's service: `submit` stores the body with `store` and forwards it as `mail` makes it; a failed forward rolls the row back. */
export function formService<B, R>(
  forwardToInbox: ForwardToInbox,
  store: (tx: Executor, body: B) => Promise<R>,
  mail: (row: R) => Omit<MailMessage, 'to'>,
): { submit(body: B): Promise<void> } {
  return { submit: (body) => forwardToInbox((tx) => store(tx, body), mail) };
}
