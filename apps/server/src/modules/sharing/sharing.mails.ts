/** The e-mail sent to a recipient when a case is shared with them. */
import { escapeHtml, renderHtml } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';

export function shareMail(share: {
  to: string;
  ownerEmail: string;
  caseId: string;
  link: string;
  expiresAt: Date;
  homeUrl: string;
}): MailMessage {
  const subject = `${share.ownerEmail} shared the phenotypes of case ${share.caseId} with you on RareLens`;
  const until = share.expiresAt.toISOString().slice(0, 10);
  const intro = `${share.ownerEmail} shared the ranked phenotypes of case ${share.caseId} with you (read only).`;
  const expiry = `The link works without an account until ${until}, unless ${share.ownerEmail} unshares it before.`;
  const account = `If you have a RareLens account with this e-mail address, the case is also under "Shared with me" on ${share.homeUrl}.`;
  return {
    to: share.to,
    subject,
    text: ['Hello,', '', intro, '', 'Open it here:', share.link, '', expiry, account].join('\n'),
    html: renderHtml(subject, [
      '<p>Hello,</p>',
      `<p>${escapeHtml(intro)}</p>`,
      `<p><a href="${escapeHtml(share.link)}">Open the shared phenotypes</a></p>`,
      `<p>${escapeHtml(expiry)}</p>`,
      `<p>${escapeHtml(account)}</p>`,
    ]),
    localHint: `share link for ${share.to}: ${share.link}`,
  };
}
