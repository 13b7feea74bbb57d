/**
 * AWS Signature Version 4 (header-based), as used by S3 and S3-compatible stores (MinIO, Ceph).
 * Written from the published algorithm: canonical request → string to sign → HMAC chain.
 */
import { createHash, createHmac } from 'node:crypto';

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignableRequest {
  method: string;
  /** Path as sent on the wire (already URI-encoded per segment). */
  path: string;
  /** Query parameters (unencoded); order does not matter. */
  query?: Record<string, string>;
  /** Headers to sign; names are case-insensitive. Must include host. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body, or UNSIGNED-PAYLOAD. */
  payloadHash: string;
}

export interface SigningScope {
  region: string;
  service: string;
  /** ISO basic format, e.g. 20130524T000000Z. */
  amzDate: string;
}

/** RFC 3986 encoding as SigV4 requires (unreserved: A-Z a-z 0-9 - _ . ~). */
export function uriEncode(s: string, encodeSlash = true): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c) || (c === '/' && !encodeSlash)) out += c;
    else out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** `Date` → `YYYYMMDDTHHMMSSZ`. */
export function toAmzDate(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

export function canonicalQuery(query: Record<string, string> | undefined): string {
  if (!query) return '';
  return Object.entries(query)
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function normalisedHeaders(headers: Record<string, string>): [string, string][] {
  return Object.entries(headers)
    .map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, ' ')] as [string, string])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function canonicalRequest(req: SignableRequest): { text: string; signedHeaders: string } {
  const hs = normalisedHeaders(req.headers);
  const signedHeaders = hs.map(([k]) => k).join(';');
  const text = [
    req.method.toUpperCase(),
    req.path || '/',
    canonicalQuery(req.query),
    hs.map(([k, v]) => `${k}:${v}\n`).join(''),
    signedHeaders,
    req.payloadHash,
  ].join('\n');
  return { text, signedHeaders };
}

const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** Signs `req`; returns the signature (hex) and the Authorization header value. */
export function signRequest(
  req: SignableRequest,
  scope: SigningScope,
  creds: Credentials,
): { signature: string; authorization: string; signedHeaders: string } {
  const day = scope.amzDate.slice(0, 8);
  const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const { text, signedHeaders } = canonicalRequest(req);
  const stringToSign = ['AWS4-HMAC-SHA256', scope.amzDate, credentialScope, sha256Hex(text)].join('\n');
  const kDate = hmac(`AWS4${creds.secretAccessKey}`, day);
  const kRegion = hmac(kDate, scope.region);
  const kService = hmac(kRegion, scope.service);
  const kSigning = hmac(kService, 'aws4_request');
  const signature = createHmac('sha256', kSigning).update(stringToSign, 'utf8').digest('hex');
  const authorization = `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { signature, authorization, signedHeaders };
}

/** Parses an `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` header. */
export function parseAuthorization(
  value: string,
): { accessKeyId: string; day: string; region: string; service: string; signedHeaders: string[]; signature: string } | null {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
    value,
  );
  if (!m) return null;
  return {
    accessKeyId: m[1]!,
    day: m[2]!,
    region: m[3]!,
    service: m[4]!,
    signedHeaders: m[5]!.split(';'),
    signature: m[6]!,
  };
}
