/** The e-mail sent to a recipient when a case is shared with them. */
import { escapeHtml, renderHtml } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { MailPerson } from './sharing.repository.ts';

/** "Ada Lovelace" from the account profile; the address alone when the profile has no name. */
export function displayName(p: Pick<MailPerson, 'name' | 'surname'>): string {
  return `${p.name} ${p.surname}`.trim();
}

export function shareMail(share: {
  to: string;
  /** The recipient's first name when the address has an account, else null ("Hello,"). */
  recipientName: string | null;
  /** The sharing user, named as in their account profile, with their address. */
  sender: MailPerson;
  caseId: string;
  link: string;
  expiresAt: Date;
  homeUrl: string;
}): MailMessage {
  const name = displayName(share.sender) || share.sender.email;
  const named = name === share.sender.email ? name : `${name} (${share.sender.email})`;
  const subject = `${name} shared the phenotypes of case ${share.caseId} with you on RareLens`;
  const until = share.expiresAt.toISOString().slice(0, 10);
  const greeting = share.recipientName ? `Hello ${share.recipientName},` : 'Hello,';
  const shared = ` shared the ranked phenotypes of case ${share.caseId} with you (read only).`;
  const expiry = `The link works without an account until ${until}, unless ${name} unshares it before.`;
  const account = `If you have a RareLens account with this e-mail address, the case is also under "Shared with me" on ${share.homeUrl}.`;
  const reply = `Questions about the case? Reply to ${name} at ${share.sender.email}.`;
  const senderHtml =
    name === share.sender.email
      ? `<a href="mailto:${escapeHtml(share.sender.email)}">${escapeHtml(name)}</a>`
      : `<strong>${escapeHtml(name)}</strong> (<a href="mailto:${escapeHtml(share.sender.email)}">${escapeHtml(share.sender.email)}</a>)`;
  return {
    to: share.to,
    subject,
    replyTo: share.sender.email,
    text: [greeting, '', `${named}${shared}`, '', 'Open it here:', share.link, '', expiry, account, '', reply].join('\n'),
    html: renderHtml(subject, [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${senderHtml}${escapeHtml(shared)}</p>`,
      `<p><a href="${escapeHtml(share.link)}">Open the shared phenotypes</a></p>`,
      `<p>${escapeHtml(expiry)}</p>`,
      `<p>${escapeHtml(account)}</p>`,
      `<p>${escapeHtml(reply)}</p>`,
    ]),
    localHint: `share link for ${share.to}: ${share.link}`,
  };
}
