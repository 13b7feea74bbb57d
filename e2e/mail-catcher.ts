/**
 * Mail for the browser tests: the one SMTP inbox of the server's tests
 * (apps/server/src/testing/smtp-inbox.ts), and what the tests read out of a message.
 */
import type { ReceivedMail } from '../apps/server/src/testing/smtp-inbox.ts';

export { startSmtpInbox, type SmtpInbox } from '../apps/server/src/testing/smtp-inbox.ts';
export type CaughtMail = ReceivedMail;

/** The 6-digit verification code of a message. */
export function extractCode(mail: CaughtMail): string {
  const code = /\b(\d{6})\b/.exec(mail.text || mail.html)?.[1];
  if (!code) throw new Error(`No 6-digit code in mail "${mail.subject}":\n${mail.text || mail.html}`);
  return code;
}

/** The first absolute link of a message whose path starts with `pathPrefix`. */
export function extractLink(mail: CaughtMail, pathPrefix: string): string {
  const body = `${mail.text}\n${mail.html}`;
  for (const match of body.matchAll(/https?:\/\/[^\s"'<>]+/g)) {
    const url = new URL(match[0].replace(/&amp;/g, '&'));
    if (url.pathname.startsWith(pathPrefix)) return url.toString();
  }
  throw new Error(`No link to ${pathPrefix} in mail "${mail.subject}":\n${body}`);
}
