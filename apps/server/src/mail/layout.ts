/** Minimal HTML wrapper for e-mails; every interpolated value is escaped. */
import type { MailMessage } from './mailer.ts';

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Wraps already-escaped HTML blocks in a plain, client-safe layout. */
export function renderHtml(title: string, blocks: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto;padding:24px">',
    '<p style="font-size:18px;font-weight:bold;color:#0f766e">RareLens</p>',
    ...blocks,
    '<p style="font-size:12px;color:#6b7280">You receive this message because of an action on RareLens.</p>',
    '</div></body></html>',
  ].join('\n');
}

/**
 * A message to one person: "Hello {name}," then the body, as plain text (lines) and as HTML
 * (already-escaped blocks in the layout above).
 */
export function personalMail(
  to: { email: string; name: string },
  subject: string,
  body: { text: string[]; html: string[] },
  more: Pick<MailMessage, 'attachments' | 'localHint'> = {},
): MailMessage {
  return {
    to: to.email,
    subject,
    text: [`Hello ${to.name},`, '', ...body.text].join('\n'),
    html: renderHtml(subject, [`<p>Hello ${escapeHtml(to.name)},</p>`, ...body.html]),
    ...more,
  };
}
