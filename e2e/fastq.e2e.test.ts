/**
 * Raw data analysis in the browser, on the embedded defaults (the demo reference shipped under
 * RARELENS_SOURCES, nothing configured): a user uploads the shipped NA12878 chrM reads through
 * the upload form, watches the case on /home go through the alignment stages to Completed (the
 * case list marks it "Raw data analysis"), sees the raw data panel labelled "Demo reference",
 * and opens the chrM 152 T>C variant, where igv.js shows the aligned reads — the BAM read with
 * HTTP range requests from the app — with no request leaving the machine.
 * Needs bwa, samtools and bcftools on PATH.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { na12878Reads as na12878, repeatedReads } from '../apps/server/src/testing/reads-fixtures.ts';
import { createVerifiedUser, logIn, startCaseTestEnv } from './case-fixtures.ts';
import { screenshotPath, uniqueEmail, type TestEnv } from './harness.ts';

const caseId = 'NA12878-CHRM-E2E';

let env: TestEnv;
let tmp: string;
const externalRequests: string[] = [];

beforeAll(async () => {
  if (!existsSync(na12878)) throw new Error(`${na12878} is missing: set RARELENS_SOURCES to the reference data directory`);
  env = await startCaseTestEnv();
  tmp = mkdtempSync(path.join(tmpdir(), 'rarelens-e2e-fastq-'));
});
afterAll(async () => {
  await env?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * The NA12878 chrM reads twelve times over (read names made unique): the same calls, with an
 * alignment long enough that /home, which re-reads the list every 3 s, usually shows its stages
 * (on a fast machine a stage can still pass between two re-reads: the API is polled as well).
 */
function longerReads(): string {
  const file = path.join(tmp, 'NA12878.chrM.x12.fastq.gz');
  writeFileSync(file, repeatedReads(12));
  return file;
}

describe('raw data analysis in the browser', () => {
  it('uploads FASTQ reads, shows the alignment stages, the demo reference and the reads in igv at a called variant', async () => {
    const email = uniqueEmail('fastq');
    const auth = await createVerifiedUser(env, email, { name: 'Frederick', surname: 'Sanger', birthDate: '1978-08-13' });
    const { page, errors } = await env.newPage();
    const origin = new URL(env.baseUrl).origin;
    const bamRanges: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (url.startsWith('data:') || url.startsWith('blob:')) return;
      if (new URL(url).origin !== origin) externalRequests.push(url);
      if (url.includes('/raw-data/alignments.bam') && !url.endsWith('.bai')) bamRanges.push(request.headers().range ?? '(no range)');
    });
    await logIn(page, email);

    // Upload through the form: the FASTQ brings up the mate field and the raw data note.
    await page.goto('/upload');
    await page.getByLabel('Case ID').fill(caseId);
    await page.getByText('Female', { exact: true }).click();
    await page.getByLabel('Clinical symptoms').fill('Exercise intolerance, muscle weakness and lactic acidosis.');
    await page.locator('[data-testid="genome-dropzone"] input[type=file]').first().setInputFiles(longerReads());
    await page.getByText(/FASTQ reads are aligned and their variants called on the server/).waitFor();
    await page.screenshot({ path: screenshotPath('fastq-upload-desktop'), fullPage: true });
    await page.getByRole('button', { name: 'Upload and analyse' }).click();
    await page.waitForURL('**/home', { timeout: 60_000 });

    // /home: the case is marked "Raw data analysis" and goes through the stages.
    const row = page.locator(`[data-case-id="${caseId}"]`);
    await row.getByTestId('raw-data-badge').waitFor();
    const status = row.getByTestId('case-status');
    const stage = row.getByTestId('case-stage');
    const stages: string[] = [];
    // The stages the server reports, read every 100 ms beside the page (which re-reads every 3 s).
    const reported: string[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const list = (await (await fetch(`${env.baseUrl}/api/products`, { headers: auth })).json()) as { items: { caseId: string; progressStage: string | null }[] };
        const s = list.items.find((p) => p.caseId === caseId)?.progressStage;
        if (s && reported.at(-1) !== s) reported.push(s);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const deadline = Date.now() + 240_000;
    let shot = false;
    for (;;) {
      const value = await status.getAttribute('data-status');
      if (value === 'Completed' || value === 'Error') break;
      const s = (await stage.count()) > 0 ? await stage.getAttribute('data-stage').catch(() => null) : null;
      if (s && stages.at(-1) !== s) {
        stages.push(s);
        if (!shot && ['alignment', 'duplicates', 'calling'].includes(s)) {
          shot = true;
          await page.screenshot({ path: screenshotPath('fastq-home-stage-desktop') });
          expect(await stage.innerText()).toMatch(/^(Aligning reads|Marking duplicates|Calling variants) · \d+%$/);
        }
      }
      if (Date.now() > deadline) throw new Error(`the case did not complete in time (stages ${stages.join(', ')})\n${env.serverLogs()}`);
      await page.waitForTimeout(150);
    }
    polling = false;
    await poller;
    expect(await status.getAttribute('data-status')).toBe('Completed');
    // The server went through the raw-data stages, and they (as reported and as shown) only move forward.
    expect(reported.filter((s) => ['alignment', 'duplicates', 'calling'].includes(s)).length, `reported: ${reported.join(', ')}`).toBeGreaterThan(0);
    const order = ['reference', 'alignment', 'duplicates', 'calling', 'annotation', 'ranking'];
    for (const list of [reported, stages]) {
      const seen = list.filter((s) => order.includes(s)).map((s) => order.indexOf(s));
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    }
    // Every stage the page showed is a stage of the pipeline or one the server reported (a stage
    // shorter than one 100 ms read can pass between two of the poller's reads, so the page may
    // show a stage the poller missed; it may never show one the server does not have).
    expect(stages.filter((s) => !order.includes(s) && !reported.includes(s)), `shown: ${stages.join(', ')}; reported: ${reported.join(', ')}`).toEqual([]);

    // The case: raw data panel with the demo reference label and the read QC.
    const products = (await (await fetch(`${env.baseUrl}/api/products`, { headers: auth })).json()) as { items: { id: string; caseId: string }[] };
    const id = products.items.find((p) => p.caseId === caseId)!.id;
    await page.goto(`/my-product/${id}/phenotypes`);
    const panel = page.getByTestId('raw-data-panel');
    await panel.waitFor({ timeout: 30_000 });
    await panel.getByTestId('demo-reference').waitFor();
    // 17,486 reads in the NA12878 chrM file, twelve times over.
    expect(await panel.getByTestId('raw-data-qc').innerText()).toMatch(/209,832/);
    await page.screenshot({ path: screenshotPath('fastq-case-desktop'), fullPage: true });

    // chrM 152 T>C (the variant that is one on GRCh38 too): igv with the aligned reads.
    const variants = (await (await fetch(`${env.baseUrl}/api/products/${id}/variants?pageSize=100`, { headers: auth })).json()) as {
      items: { id: number; chrom: string; pos: number; ref: string; alt: string }[];
    };
    const v152 = variants.items.find((v) => v.chrom === 'MT' && v.pos === 152 && v.ref === 'T' && v.alt === 'C');
    expect(v152).toBeDefined();
    await page.goto(`/my-product/${id}/phenotypes?view=variants&variant=${v152!.id}`);
    const evidence = page.getByTestId('variant-evidence');
    await evidence.waitFor();
    const igv = evidence.locator('[data-testid="igv-view"]');
    await igv.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 60_000 });
    await igv.getByTestId('igv-reads-note').getByText(/Aligned reads at chrM:152/).waitFor();
    await igv.getByTestId('demo-reference').waitFor();
    await igv.getByText('Aligned reads', { exact: true }).first().waitFor({ timeout: 30_000 });
    // igv read the BAM in ranges, and drew the reads (its alignment canvas has content).
    await expect.poll(() => bamRanges.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(bamRanges.every((r) => /^bytes=\d+-\d+$/.test(r))).toBe(true);
    // igv draws the reads on canvases (inside its shadow DOM: a locator reaches them): the
    // tallest painted one is the alignments track, with reads drawn on a good share of it.
    await expect
      .poll(
        () =>
          igv.locator('canvas').evaluateAll((els) =>
            Math.max(
              0,
              ...els.map((el) => {
                const c = el as HTMLCanvasElement;
                const ctx = c.getContext('2d');
                if (!ctx || c.width === 0 || c.height < 150) return 0;
                const data = ctx.getImageData(0, 0, c.width, c.height).data;
                let painted = 0;
                for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
                return painted / (c.width * c.height);
              }),
            ),
          ),
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0.2);
    await page.waitForTimeout(500);
    await igv.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('fastq-igv-reads-desktop') });

    expect(errors).toEqual([]);
    expect(externalRequests).toEqual([]);
  }, 400_000);
});
