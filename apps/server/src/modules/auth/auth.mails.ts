/** The e-mails of the account flows (plain text + simple HTML). */
import type { MailMessage } from '../../mail/mailer.ts';
import { escapeHtml, personalMail } from '../../mail/layout.ts';

export function verificationCodeMail(
  to: { email: string; name: string },
  code: string,
  ttlMinutes: number,
): MailMessage {
  const expiry = `It expires in ${ttlMinutes} minutes. If you did not create an account, ignore this message.`;
  return personalMail(
    to,
    `Your RareLens verification code: ${code}`,
    {
      text: [`Your RareLens verification code is: ${code}`, '', expiry],
      html: [
        '<p>Your RareLens verification code is:</p>',
        `<p style="font-size:28px;letter-spacing:6px;font-weight:bold">${escapeHtml(code)}</p>`,
        `<p>${expiry}</p>`,
      ],
    },
    { localHint: `verification code for ${to.email}: ${code}` },
  );
}

export function passwordResetMail(
  to: { email: string; name: string },
  link: string,
  ttlMinutes: number,
): MailMessage {
  const expiry = `The link works once and expires in ${ttlMinutes} minutes. If you did not ask for it, ignore this message.`;
  return personalMail(
    to,
    'Reset your RareLens password',
    {
      text: ['Open this link to choose a new password:', link, '', expiry],
      html: [`<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`, `<p>${expiry}</p>`],
    },
    { localHint: `password reset link for ${to.email}: ${link}` },
  );
}
