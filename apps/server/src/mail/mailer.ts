/**
 * Outgoing e-mail through nodemailer. With SMTP_URL the message goes to that server; without
 * it (the embedded default) each message is written as an .eml file under <dataDir>/mail and
 * its code or link is logged, so a local user can finish sign-up without a mail server.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../env.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** Files sent with the message (an invoice PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /**
   * What a local user needs from the message (a code, a link). Logged only when messages are
   * written to files, never when a real SMTP server delivers them.
   */
  localHint?: string;
}

export interface Mailer {
  readonly mode: 'smtp' | 'file';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Creates the mailer for the configuration (SMTP when `smtpUrl` is set, else .eml files). */
export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailDir' | 'mailFrom'>,
  logger: FastifyBaseLogger,
): Mailer {
  const envelope = (message: MailMessage) => ({
    from: config.mailFrom,
    to: message.to,
    replyTo: message.replyTo,
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments,
  });
  if (config.smtpUrl !== undefined) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      mode: 'smtp',
      async send(message) {
        const info = await transport.sendMail(envelope(message));
        logger.info({ messageId: info.messageId, subject: message.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }

  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    mode: 'file',
    async send(message) {
      const info = await transport.sendMail(envelope(message));
      await mkdir(config.mailDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(config.mailDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      logger.info(
        { file, to: message.to, subject: message.subject, hint: message.localHint },
        `mail written to ${file}${message.localHint === undefined ? '' : ` (${message.localHint})`}`,
      );
    },
    close: () => transport.close(),
  };
}
