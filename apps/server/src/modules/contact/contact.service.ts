/** Contact form: stored, then e-mailed to the team inbox (the MAIL_FROM address). */
import type { ContactBody } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { addressOf } from '../../mail/address.ts';
import { escapeHtml, renderHtml } from '../../mail/layout.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { insertContactMessage } from './contact.repository.ts';

export type ContactService = ReturnType<typeof createContactService>;

export function createContactService(deps: {
  database: Database;
  mailer: Mailer;
  mailFrom: string;
}) {
  const inbox = addressOf(deps.mailFrom);
  return {
    /** Stores the message and forwards it; a failed forward rolls the message back. */
    async submit(body: ContactBody): Promise<void> {
      await deps.database.db.transaction(async (tx) => {
        const row = await insertContactMessage(tx, body);
        const subject = `Contact message from ${row.name} ${row.surname}`;
        await deps.mailer.send({
          to: inbox,
          replyTo: row.email,
          subject,
          text: `From: ${row.name} ${row.surname} <${row.email}>\n\n${row.message}`,
          html: renderHtml(subject, [
            `<p>From: ${escapeHtml(`${row.name} ${row.surname}`)} &lt;${escapeHtml(row.email)}&gt;</p>`,
            `<p style="white-space:pre-wrap">${escapeHtml(row.message)}</p>`,
          ]),
        });
      });
    },
  };
}
