/** Contact form: stored, then e-mailed to the team inbox (the MAIL_FROM address); a failed forward rolls the message back. */
import { escapeHtml, renderHtml } from '../../mail/layout.ts';
import { formService, type ForwardToInbox } from '../../mail/forward-to-inbox.ts';
import { insertContactMessage } from './contact.repository.ts';

export type ContactService = ReturnType<typeof createContactService>;

export function createContactService(deps: { forwardToInbox: ForwardToInbox }) {
  return formService(deps.forwardToInbox, insertContactMessage, (row) => {
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
  });
}
