/**
 * The one SMTP inbox for tests (integration and browser): a real SMTP server in-process, so
 * messages the app sends over SMTP_URL land here, decoded enough to read the plain-text and
 * HTML bodies (quoted-printable or base64, multipart) and the RFC 2047 encoded headers.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients, lower-case. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
  receivedAt: number;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

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
  const soft = text.replace(/=\r?\n/g, '');
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
    kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** Walks a MIME tree and collects the text/plain and text/html bodies. */
function collectBodies(part: Part, out: { text: string; html: string }): void {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    for (const section of part.body.split(`--${boundary}`).slice(1)) {
      if (section.startsWith('--')) break;
      collectBodies(splitHeaders(section.replace(/^\n/, '')), out);
    }
    return;
  }
  if (type.toLowerCase().startsWith('text/html')) out.html += decodeBody(part);
  else if (type.toLowerCase().startsWith('text/plain')) out.text += decodeBody(part);
}

/** Parses one raw RFC 5322 message into the fields tests look at. */
export function parseMail(raw: string, envelopeTo: string[]): ReceivedMail {
  const root = splitHeaders(raw);
  const bodies = { text: '', html: '' };
  collectBodies(root, bodies);
  return {
    to: envelopeTo.map((a) => a.toLowerCase()),
    from: decodeHeader(root.headers.get('from') ?? ''),
    subject: decodeHeader(root.headers.get('subject') ?? ''),
    text: bodies.text.trimEnd(),
    html: bodies.html,
    raw,
    receivedAt: Date.now(),
  };
}

export interface SmtpInbox {
  url: string;
  port: number;
  /** Every message received, oldest first. */
  messages: ReceivedMail[];
  /** Every message sent to `address`, oldest first. */
  mailsFor(address: string): ReceivedMail[];
  /** Waits for the first message to `to` matching `predicate`. */
  waitFor(to: string, predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /**
   * The newest message to `address` (optionally matching), waiting up to `timeoutMs` for it.
   * `skip` ignores the first N messages to that address: pass `mailsFor(address).length`
   * taken before an action to wait for the message that action sends.
   */
  waitForMail(address: string, options?: { match?: (m: ReceivedMail) => boolean; skip?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Starts an inbox on 127.0.0.1 (port 0: any free port). */
export async function startSmtpInbox(port = 0): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((r) => r.address)));
        for (const listener of listeners) listener();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  const mailsFor = (address: string): ReceivedMail[] => messages.filter((m) => m.to.includes(address.toLowerCase()));
  /** Resolves with `find()` once it answers, or fails after `timeoutMs`. */
  const waitUntil = (find: () => ReceivedMail | undefined, timeoutMs: number, what: string): Promise<ReceivedMail> => {
    const found = find();
    if (found) return Promise.resolve(found);
    return new Promise<ReceivedMail>((resolve, reject) => {
      const onMail = (): void => {
        const mail = find();
        if (!mail) return;
        cleanup();
        resolve(mail);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no mail to ${what} within ${timeoutMs} ms (received ${messages.length} in total)`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        listeners.delete(onMail);
      };
      listeners.add(onMail);
    });
  };
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    messages,
    mailsFor,
    waitFor: (to, predicate = () => true, timeoutMs = 10_000) => waitUntil(() => mailsFor(to).find(predicate), timeoutMs, to),
    waitForMail: (address, { match, skip = 0, timeoutMs = 15_000 } = {}) =>
      waitUntil(() => mailsFor(address).slice(skip).filter((m) => (match ? match(m) : true)).at(-1), timeoutMs, address),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
