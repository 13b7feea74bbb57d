/** The e-mails of the account flows (plain text + simple HTML). */
import type { MailMessage } from '../../mail/mailer.ts';
import { escapeHtml, renderHtml } from '../../mail/layout.ts';

export function verificationCodeMail(
  to: { email: string; name: string },
  code: string,
  ttlMinutes: number,
): MailMessage {
  const subject = `Your RareLens verification code: ${code}`;
  return {
    to: to.email,
    subject,
    text: [
      `Hello ${to.name},`,
      '',
      `Your RareLens verification code is: ${code}`,
      '',
      `It expires in ${ttlMinutes} minutes. If you did not create an account, ignore this message.`,
    ].join('\n'),
    html: renderHtml(subject, [
      `<p>Hello ${escapeHtml(to.name)},</p>`,
      '<p>Your RareLens verification code is:</p>',
      `<p style="font-size:28px;letter-spacing:6px;font-weight:bold">${escapeHtml(code)}</p>`,
      `<p>It expires in ${ttlMinutes} minutes. If you did not create an account, ignore this message.</p>`,
    ]),
    localHint: `verification code for ${to.email}: ${code}`,
  };
}

export function passwordResetMail(
  to: { email: string; name: string },
  link: string,
  ttlMinutes: number,
): MailMessage {
  const subject = 'Reset your RareLens password';
  return {
    to: to.email,
    subject,
    text: [
      `Hello ${to.name},`,
      '',
      'Open this link to choose a new password:',
      link,
      '',
      `The link works once and expires in ${ttlMinutes} minutes. If you did not ask for it, ignore this message.`,
    ].join('\n'),
    html: renderHtml(subject, [
      `<p>Hello ${escapeHtml(to.name)},</p>`,
      `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`,
      `<p>The link works once and expires in ${ttlMinutes} minutes. If you did not ask for it, ignore this message.</p>`,
    ]),
    localHint: `password reset link for ${to.email}: ${link}`,
  };
}
