/** Contact form: stored, then e-mailed to the team inbox (the MAIL_FROM address). */
import type { ContactBody } from '@rarelens/contract';
import { escapeHtml, renderHtml } from '../../mail/layout.ts';
import type { ForwardToInbox } from '../../mail/forward-to-inbox.ts';
import { insertContactMessage } from './contact.repository.ts';

export type ContactService = ReturnType<typeof createContactService>;

export function createContactService(deps: { forwardToInbox: ForwardToInbox }) {
  return {
    /** Stores the message and forwards it; a failed forward rolls the message back. */
    async submit(body: ContactBody): Promise<void> {
      await deps.forwardToInbox(
        (tx) => insertContactMessage(tx, body),
        (row) => {
          const subject = `Contact message from ${row.name} ${row.surname}`;
          return {
            replyTo: row.email,
            subject,
            text: `From: ${row.name} ${row.surname} <${row.email}>\n\n${row.message}`,
            html: renderHtml(subject, [
              `<p>From: ${escapeHtml(`${row.name} ${row.surname}`)} &lt;${escapeHtml(row.email)}&gt;</p>`,
              `<p style="white-space:pre-wrap">${escapeHtml(row.message)}</p>`,
            ]),
          };
        },
      );
    },
  };
}
