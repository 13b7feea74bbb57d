/** "Request a demo": stored, then e-mailed to the sales inbox (the MAIL_FROM address). */
import type { DemoRequestBody } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { escapeHtml, renderHtml } from '../../mail/layout.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { addressOf } from '../../mail/address.ts';
import { insertDemoRequest } from './demo-requests.repository.ts';

export type DemoRequestsService = ReturnType<typeof createDemoRequestsService>;

export function createDemoRequestsService(deps: {
  database: Database;
  mailer: Mailer;
  mailFrom: string;
}) {
  const salesInbox = addressOf(deps.mailFrom);
  return {
    /** Stores the request and notifies sales; a failed notification rolls the request back. */
    async submit(body: DemoRequestBody): Promise<void> {
      await deps.database.db.transaction(async (tx) => {
        const row = await insertDemoRequest(tx, body);
        const fields: [string, string][] = [
          ['Name', `${row.name} ${row.surname}`],
          ['E-mail', row.email],
          ['Job title', row.jobTitle],
          ['Company', row.companyName],
          ['Phone', row.phone],
          ['Country', row.country],
          ['Yearly sample count', row.yearlySampleCount],
        ];
        const subject = `Demo request from ${row.companyName}`;
        await deps.mailer.send({
          to: salesInbox,
          replyTo: row.email,
          subject,
          text: fields.map(([k, v]) => `${k}: ${v}`).join('\n'),
          html: renderHtml(subject, [
            '<table>',
            ...fields.map(
              ([k, v]) =>
                `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
            ),
            '</table>',
          ]),
        });
      });
    },
  };
}
