/** "Request a demo": stored, then e-mailed to the sales inbox (the MAIL_FROM address); a failed notification rolls the request back. */
import { escapeHtml, renderHtml } from '../../mail/layout.ts';
import { formService, type ForwardToInbox } from '../../mail/forward-to-inbox.ts';
import { insertDemoRequest } from './demo-requests.repository.ts';

export type DemoRequestsService = ReturnType<typeof createDemoRequestsService>;

export function createDemoRequestsService(deps: { forwardToInbox: ForwardToInbox }) {
  return formService(deps.forwardToInbox, insertDemoRequest, (row) => {
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
    return {
      replyTo: row.email,
      subject,
      text: fields.map(([k, v]) => `${k}: ${v}`).join('\n'),
      html: renderHtml(subject, ['<table>', ...fields.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`), '</table>']),
    };
  });
}
