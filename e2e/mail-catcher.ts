/**
 * An in-process SMTP server that keeps every message, for browser tests that read the
 * verification codes and reset links the real server sends.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export type CaughtMail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
  receivedAt: number;
};

type Part = { headers: Map<string, string>; body: string };

function splitHeaders(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines start with whitespace and continue the previous header.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const ch = soft[i]!;
    const hex = soft.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  return part.body;
}

/** RFC 2047 encoded words in headers (=?UTF-8?Q?...?= / =?UTF-8?B?...?=). */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** Walks a MIME tree and collects the text/plain and text/html bodies. */
function collectBodies(part: Part, out: { text: string; html: string }): void {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const sections = part.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      collectBodies(splitHeaders(section.replace(/^\n/, '')), out);
    }
    return;
  }
  if (type.toLowerCase().startsWith('text/html')) out.html += decodeBody(part);
  else if (type.toLowerCase().startsWith('text/plain')) out.text += decodeBody(part);
}

/** Parses one raw RFC 5322 message into the fields tests look at. */
export function parseMail(raw: string, envelopeTo: string[]): CaughtMail {
  const root = splitHeaders(raw);
  const bodies = { text: '', html: '' };
  collectBodies(root, bodies);
  return {
    to: envelopeTo.map((a) => a.toLowerCase()),
    from: decodeHeader(root.headers.get('from') ?? ''),
    subject: decodeHeader(root.headers.get('subject') ?? ''),
    text: bodies.text,
    html: bodies.html,
    raw,
    receivedAt: Date.now(),
  };
}

export class MailCatcher {
  readonly messages: CaughtMail[] = [];
  private server: SMTPServer | undefined;
  private listeners = new Set<() => void>();

  /** Starts listening on 127.0.0.1 (port 0 = any free port); resolves with the port. */
  async start(port = 0): Promise<number> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', callback);
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((r) => r.address);
          this.messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), to));
          for (const listener of this.listeners) listener();
          callback();
        });
      },
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Every message sent to `address`, oldest first. */
  mailsFor(address: string): CaughtMail[] {
    const wanted = address.toLowerCase();
    return this.messages.filter((m) => m.to.includes(wanted));
  }

  /**
   * The newest message to `address` (optionally matching), waiting up to `timeoutMs` for it.
   * `skip` ignores the first N messages to that address: pass `mailsFor(address).length`
   * taken before an action to wait for the message that action sends.
   */
  async waitForMail(
    address: string,
    { match, skip = 0, timeoutMs = 15_000 }: { match?: (m: CaughtMail) => boolean; skip?: number; timeoutMs?: number } = {},
  ): Promise<CaughtMail> {
    const find = () =>
      this.mailsFor(address)
        .slice(skip)
        .filter((m) => (match ? match(m) : true))
        .at(-1);
    const found = find();
    if (found) return found;
    return new Promise<CaughtMail>((resolve, reject) => {
      const onMail = () => {
        const mail = find();
        if (!mail) return;
        cleanup();
        resolve(mail);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`No mail to ${address} within ${timeoutMs} ms (caught ${this.messages.length} in total)`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(onMail);
      };
      this.listeners.add(onMail);
    });
  }
}

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
