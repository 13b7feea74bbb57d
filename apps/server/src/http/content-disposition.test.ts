import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition.ts';

/** What a browser does with filename*: percent-decode the UTF-8 bytes. */
const decoded = (header: string): string => decodeURIComponent(/filename\*=UTF-8''(\S+)$/.exec(header)![1]!);
/** A header value Node would refuse to send (ERR_INVALID_CHAR): outside visible ASCII + space/tab. */
const invalidHeader = (v: string): boolean => /[^\t\x20-\x7e]/.test(v);

describe('contentDisposition (RFC 6266 / RFC 8187)', () => {
  it.each([
    ['hasta_şğı.vcf', 'hasta_sgi.vcf'],
    ['患者.vcf', '__.vcf'],
    ['🧬 genome.vcf.gz', '_ genome.vcf.gz'],
    ['Ünal (2).pdf', 'Unal (2).pdf'],
    ["o'brien*report.pdf", "o'brien*report.pdf"],
  ])('%s: a valid header with an ASCII fallback and the exact name', (name, fallback) => {
    const h = contentDisposition(name);
    expect(invalidHeader(h)).toBe(false);
    expect(h).toContain(`attachment; filename="${fallback}"`);
    expect(decoded(h)).toBe(name);
  });

  it('percent-encodes the characters RFC 8187 leaves out of attr-char', () => {
    expect(contentDisposition("a'(b)*.txt")).toContain("filename*=UTF-8''a%27%28b%29%2A.txt");
  });

  it('neutralises quotes, CR/LF and path separators', () => {
    const h = contentDisposition('../..\\evil"\r\nSet-Cookie: x=1.vcf');
    expect(invalidHeader(h)).toBe(false);
    expect(h).not.toMatch(/\r|\n/);
    expect(h.split('filename*')[0]).not.toMatch(/"[^"]*"[^;]*"/); // one quoted fallback
    expect(decoded(h)).toBe('.._.._evil"\r\nSet-Cookie: x=1.vcf');
  });

  it('gives a name when the upload had none', () => {
    expect(contentDisposition('   ')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
  });
});
