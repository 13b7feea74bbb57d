/**
 * Slow uploads stopped (issue 16, malformed-input corpus "slow-loris uploads"): a client that
 * trickles its body, or sends the headers and then nothing, is answered 408 `upload_stalled`
 * within about one measuring window, and nothing of its upload is kept; an upload at a normal
 * pace is unaffected. Runs a real listening server (the pace is measured on the socket).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine } from '../src/jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../src/jobs/testing/fixture-vcf.ts';
import { countOf, signUpAndLogIn } from '../src/testing/helpers.ts';
import { multipartBody } from '../src/testing/multipart.ts';
import { startSmtpInbox, type SmtpInbox } from '../src/testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../src/testing/test-app.ts';

const FIELDS = { caseId: 'SLOW-1', gender: 'female', symptoms: 'Seizures', hpoTerms: JSON.stringify(['HP:0001250']), assembly: 'GRCh38' };
const WINDOW_SECONDS = 1;
const MIN_BYTES_PER_SECOND = 4096;

let inbox: SmtpInbox;
let test: TestApp;
let port: number;
let token: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  const fixture = createFixtureEngine({ genePhenotypes: {} });
  test = await createTestApp({
    smtpUrl: inbox.url,
    env: { UPLOAD_PACE_WINDOW_SECONDS: String(WINDOW_SECONDS), UPLOAD_MIN_BYTES_PER_SECOND: String(MIN_BYTES_PER_SECOND) },
    cases: { engine: () => Promise.resolve(fixture), jobs: { inProcessWorker: false } },
  });
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  port = (test.app.server.address() as AddressInfo).port;
  token = (await signUpAndLogIn(test.app, inbox)).token;
});
afterAll(async () => {
  await test?.close();
  await inbox?.close();
});

interface Answer {
  status: number;
  body: string;
  ms: number;
}

/**
 * POSTs `body` over a real socket: the first `headBytes` at once, then `chunkBytes` every
 * `everyMs` until all is sent or the server answers.
 */
function trickle(body: Buffer, contentType: string, headBytes: number, chunkBytes: number, everyMs: number): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const pace: { timer?: NodeJS.Timeout } = {};
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/products',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': body.length },
      },
      (res) => {
        clearInterval(pace.timer);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - started });
          req.destroy();
        });
      },
    );
    req.on('error', (error) => {
      clearInterval(pace.timer);
      reject(error);
    });
    let sent = Math.min(headBytes, body.length);
    if (sent === 0) req.flushHeaders();
    else req.write(body.subarray(0, sent));
    if (sent === body.length) {
      req.end();
      return;
    }
    if (chunkBytes === 0) return; // headers (and the head) only, then silence
    pace.timer = setInterval(() => {
      const next = Math.min(sent + chunkBytes, body.length);
      const chunk = body.subarray(sent, next);
      sent = next;
      if (sent === body.length) {
        clearInterval(pace.timer);
        req.end(chunk);
      } else req.write(chunk);
    }, everyMs);
  });
}

function storedFiles(): string[] {
  const uploads = path.join(test.dataDir, 'uploads');
  if (!existsSync(uploads)) return [];
  return readdirSync(uploads, { recursive: true })
    .map(String)
    .filter((f) => statSync(path.join(uploads, f)).isFile());
}

async function caseRows(): Promise<number> {
  return countOf(test.app, sql`select count(*)::int as n from products where case_id like 'SLOW-%'`);
}

describe('slow uploads are stopped with nothing kept', () => {
  const vcf = buildFixtureVcf(1000, ['GENE1', 'GENE2']);
  const { body, contentType } = multipartBody(FIELDS, [{ field: 'genomeFile', name: 'slow.vcf', content: vcf }]);

  it('answers 408 upload_stalled to a client that trickles its body, and keeps no case or file', async () => {
    expect(body.length).toBeGreaterThan(40_000);
    // 200 bytes every 250 ms = 800 bytes/s, under the 4096 bytes/s minimum: the whole body would take minutes.
    const answer = await trickle(body, contentType, 2000, 200, 250);
    expect(answer.status).toBe(408);
    const parsed = JSON.parse(answer.body) as { code: string; message: string };
    expect(parsed.code).toBe('upload_stalled');
    expect(parsed.message).toMatch(/too slow.*4096 bytes per second.*Nothing was kept/s);
    // Stopped within a few windows, long before the trickle would have finished.
    expect(answer.ms).toBeLessThan(10_000);
    expect(await caseRows()).toBe(0);
    await expect.poll(storedFiles, { timeout: 5000 }).toEqual([]);
  });

  it('answers 408 to a client that sends the headers and then nothing', async () => {
    const answer = await trickle(body, contentType, 0, 0, 0);
    expect(answer.status).toBe(408);
    expect((JSON.parse(answer.body) as { code: string }).code).toBe('upload_stalled');
    expect(answer.ms).toBeLessThan(10_000);
    expect(await caseRows()).toBe(0);
    expect(storedFiles()).toEqual([]);
  });

  it('accepts the same upload sent at a normal pace', async () => {
    // 16 KiB every 100 ms = 160 KiB/s, well above the minimum; several windows long in total.
    const answer = await trickle(body, contentType, 2000, 16 * 1024, 100);
    expect(answer.status, answer.body).toBe(202);
    expect(await caseRows()).toBe(1);
    expect(storedFiles().length).toBe(1);
  });
});
