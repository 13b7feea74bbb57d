/**
 * Shared set-up of the browser tests that need a completed case: the reference data and KB
 * preconditions, a verified user created over the API, a Pfeiffer exome excerpt uploaded and
 * analysed by the real engine, and the login form.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { extractCode, repoRoot, startTestEnv, submitLogin, type TestEnv } from './harness.ts';

export const kbDir = path.resolve(process.env.RARELENS_KB ?? path.join(repoRoot, 'data/kb'));
export const sourcesDir = path.resolve(
  process.env.RARELENS_SOURCES ?? path.join(repoRoot, '../shared/data'),
);
export const vcfPath = path.join(sourcesDir, 'vcf/Pfeiffer.hg19.vcf.gz');
export const testPassword = 'Genome2024';

/** Starts the real server with the shared KB and the in-process worker, after checking the data exists. */
export async function startCaseTestEnv(): Promise<TestEnv> {
  if (!existsSync(path.join(kbDir, 'manifest.json'))) {
    throw new Error(
      `No knowledge base at ${kbDir}: build it with \`npx rarelens kb build\` (or set RARELENS_KB)`,
    );
  }
  if (!existsSync(vcfPath))
    throw new Error(`${vcfPath} is missing: set RARELENS_SOURCES to the reference data directory`);
  return startTestEnv({ env: { RARELENS_KB: kbDir, RARELENS_INPROCESS_WORKER: 'true' } });
}

/** Registers, verifies (code read from the SMTP catcher) and logs in over the API; returns an Authorization header. */
export async function createVerifiedUser(
  env: TestEnv,
  email: string,
  person: { name: string; surname: string; birthDate: string },
  password = testPassword,
): Promise<Record<string, string>> {
  const post = (url: string, body: unknown) =>
    fetch(`${env.baseUrl}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const registered = await post('/api/auth/register', {
    ...person,
    email,
    password,
    termsAccepted: true,
  });
  expect(registered.status).toBe(201);
  const code = extractCode(await env.mail.waitForMail(email));
  expect((await post('/api/auth/verify', { email, code })).status).toBe(200);
  const login = await post('/api/auth/login', { email, password });
  const { token } = (await login.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

/** A verified user (created over the API) signed in through the login form in a new page. */
export async function signedInPage(
  env: TestEnv,
  email: string,
  person: { name: string; surname: string; birthDate: string },
  size?: { width: number; height: number },
  password = testPassword,
): ReturnType<TestEnv['newPage']> {
  await createVerifiedUser(env, email, person, password);
  const opened = await env.newPage(size);
  await logIn(opened.page, email, password);
  return opened;
}

/** Header, the first 300 records and every record around FGFR2 of the Pfeiffer exome (GRCh37). */
export function pfeifferExcerpt(): string {
  const lines = gunzipSync(readFileSync(vcfPath)).toString('utf8').split('\n');
  const records = lines.filter((l) => l !== '' && !l.startsWith('#'));
  const fgfr2 = records.filter((l) => {
    const [chrom, pos] = l.split('\t');
    return chrom === '10' && Number(pos) > 123_200_000 && Number(pos) < 123_400_000;
  });
  return (
    [...lines.filter((l) => l.startsWith('#')), ...records.slice(0, 300), ...fgfr2].join('\n') +
    '\n'
  );
}

/** Uploads the Pfeiffer excerpt as a case over the API and waits until it is Completed; returns its id. */
export async function createCompletedCase(
  env: TestEnv,
  auth: Record<string, string>,
  c: { caseId: string; symptoms: string; hpoTerms: string[] },
): Promise<string> {
  const form = new FormData();
  form.set('caseId', c.caseId);
  form.set('gender', 'female');
  form.set('symptoms', c.symptoms);
  form.set('hpoTerms', JSON.stringify(c.hpoTerms));
  form.set('assembly', 'auto');
  form.set(
    'genomeFile',
    new Blob([pfeifferExcerpt()], { type: 'text/plain' }),
    'pfeiffer-excerpt.vcf',
  );
  const upload = await fetch(`${env.baseUrl}/api/products`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  expect(upload.status).toBe(202);
  const { id } = (await upload.json()) as { id: string };
  const deadline = Date.now() + 180_000;
  for (;;) {
    const res = await fetch(`${env.baseUrl}/api/products/${id}`, { headers: auth });
    const p = (await res.json()) as { status: string; error: unknown };
    if (p.status === 'Completed') return id;
    if (p.status === 'Error') throw new Error(`analysis failed: ${JSON.stringify(p.error)}`);
    if (Date.now() > deadline)
      throw new Error(`the case did not complete in time\n${env.serverLogs()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * A second case of the same owner, waiting for a worker (the row an upload writes before any
 * job is taken): a copy of `productId`'s row with status In queue. Returns its id.
 */
export async function insertQueuedCopy(env: TestEnv, productId: string, caseId: string): Promise<string> {
  const [queued] = await env.sql<{ id: string }>(
    `INSERT INTO products (owner_id, case_id, gender, symptoms, hpo_terms, excluded_terms, assembly_requested, genome_format, status, progress)
     SELECT owner_id, $2, gender, symptoms, hpo_terms, excluded_terms, assembly_requested, genome_format, 'In queue', 0
     FROM products WHERE id = $1 RETURNING id`,
    [productId, caseId],
  );
  if (!queued) throw new Error(`No case ${productId} to copy`);
  return queued.id;
}

/** Signs in through the login form and waits for /home. */
export async function logIn(page: Page, email: string, password = testPassword): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, email, password);
  await page.waitForURL('**/home');
}

/**
 * A VCF whose malformed line lies past the records checked before queueing: the upload is
 * accepted and the analysis ends in Error, naming that line (`badLine`, 1-based).
 */
export function lateFailingVcf(): { text: string; badLine: number } {
  const good = Array.from({ length: 12_000 }, (_, i) => `10\t${100_000 + i * 10}\t.\tT\tG\t50\tPASS\t.\tGT\t0/1`);
  const text = [
    '##fileformat=VCFv4.2',
    '##contig=<ID=10,length=135534747>',
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1',
    ...good,
    '10\tnot-a-position\t.\tA\tC\t50\tPASS\t.\tGT\t0/1',
    '',
  ].join('\n');
  return { text, badLine: 3 + good.length + 1 };
}
