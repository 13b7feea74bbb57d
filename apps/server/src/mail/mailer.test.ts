import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';

let mailDir: string;
beforeEach(() => {
  mailDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'rarelens-mail-')), 'mail');
});
afterEach(() => rmSync(path.dirname(mailDir), { recursive: true, force: true }));

describe('file mailer (no SMTP_URL)', () => {
  it('writes each message as a private .eml file and logs its hint', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const mailer = createMailer(
      { smtpUrl: undefined, mailDir, mailFrom: 'RareLens <no-reply@rarelens.local>' },
      pino(sink),
    );
    expect(mailer.mode).toBe('file');
    await mailer.send({
      to: 'ada@example.org',
      subject: 'Your RareLens verification code: 123456',
      text: 'Your RareLens verification code is: 123456',
      html: '<p>123456</p>',
      localHint: 'verification code for ada@example.org: 123456',
    });
    const files = readdirSync(mailDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const file = path.join(mailDir, files[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const eml = readFileSync(file, 'utf8');
    expect(eml).toMatch(/^From: RareLens <no-reply@rarelens\.local>$/m);
    expect(eml).toMatch(/^To: ada@example\.org$/m);
    expect(eml).toContain('multipart/alternative');
    expect(lines.join('')).toContain('verification code for ada@example.org: 123456');
    mailer.close();
  });
});
