/**
 * Content-Disposition for a served file, per RFC 6266 with the RFC 8187 `filename*` parameter:
 * an ASCII `filename` fallback for old clients (non-ASCII, quotes, backslashes and control
 * characters replaced by "_") and the exact UTF-8 name percent-encoded. Any name a user uploads
 * (Turkish, CJK, emoji, CR/LF) gives a valid header, never ERR_INVALID_CHAR.
 */

// RFC 8187 attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

function encodeRfc8187(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function contentDisposition(fileName: string, type: 'attachment' | 'inline' = 'attachment'): string {
  // Path separators never belong in a suggested name (a client could honour them).
  const base = fileName.replace(/[/\\]/g, '_').trim() || 'download';
  const ascii = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off: Ü -> U, ş -> s
    .replace(/ı/g, 'i') // Turkish dotless i has no decomposition
    .replace(/[^\x20-\x7e]|["%]/gu, '_'); // one "_" per character, not per UTF-16 unit
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(base)}`;
}
