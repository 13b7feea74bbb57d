/**
 * A real SMTP server in-process for tests: messages sent by the app over SMTP_URL land here,
 * decoded enough to read the plain-text body (quoted-printable or base64).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes: number[] = [];
  const joined = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < joined.length; i++) {
    const ch = joined[i]!;
    const hex = joined.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function splitHeaders(part: string): { headers: Map<string, string>; body: string } {
  const index = part.search(/\r?\n\r?\n/);
  const head = index === -1 ? part : part.slice(0, index);
  const body = index === -1 ? '' : part.slice(index).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

function decodeHeaderWords(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** The text/plain content of a MIME message (single part or multipart). */
export function extractPlainText(raw: string): string {
  const { headers, body } = splitHeaders(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary === undefined) return decodeBody(headers, body);
  for (const part of body.split(`--${boundary}`)) {
    const parsed = splitHeaders(part.replace(/^\r?\n/, ''));
    const partType = parsed.headers.get('content-type') ?? '';
    if (partType.startsWith('text/plain')) return decodeBody(parsed.headers, parsed.body).trimEnd();
    if (partType.startsWith('multipart/')) {
      const nested = extractPlainText(part.replace(/^\r?\n/, ''));
      if (nested !== '') return nested;
    }
  }
  return '';
}

export interface SmtpInbox {
  url: string;
  messages: ReceivedMail[];
  /** Waits for the first message to `to` (lower-case) matching `predicate`. */
  waitFor(
    to: string,
    predicate?: (mail: ReceivedMail) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers } = splitHeaders(raw);
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: decodeHeaderWords(headers.get('subject') ?? ''),
          text: extractPlainText(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, predicate = () => true, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((m) => m.to.includes(to.toLowerCase()) && predicate(m));
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
