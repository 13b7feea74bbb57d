/**
 * A trio in the browser: a user uploads a joint-called family VCF (the GIAB Ashkenazi trio
 * excerpt, with one proband call made de novo by setting the father's genotype to 0/0 at
 * adequate depth) and describes the family with the pedigree editor on the upload page. Once the
 * case is Completed, the case page shows the pedigree and trio QC, and the variants screen,
 * filtered to de novo, lists that variant with every member's genotype.
 *
 * Needs the KB (RARELENS_KB) and the reference data (RARELENS_SOURCES).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kbDir, sourcesDir, signedInPage } from './case-fixtures.ts';
import { screenshotPath, startTestEnv, uniqueEmail, type TestEnv } from './harness.ts';

const trioVcf = path.join(sourcesDir, 'vcf/ashk-trio.GIAB-AJ.exome.b37.head10k.vcf.gz');
const poll = { timeout: 20_000, interval: 200 };
/** MACF1 missense (GRCh37 1:39908506 G>A), heterozygous in HG002 and in the father HG003. */
const SPIKED = { chrom: '1', pos: '39908506' };

let env: TestEnv;

beforeAll(async () => {
  if (!existsSync(path.join(kbDir, 'manifest.json'))) throw new Error(`No knowledge base at ${kbDir}: build it with \`npx rarelens kb build\``);
  if (!existsSync(trioVcf)) throw new Error(`${trioVcf} is missing: set RARELENS_SOURCES to the reference data directory`);
  env = await startTestEnv({ env: { RARELENS_KB: kbDir, RARELENS_INPROCESS_WORKER: 'true' } });
});
afterAll(async () => {
  await env?.stop();
});

/** The trio VCF with the father's call at the spiked site set to a well-covered 0/0 (a de novo in the proband). */
function trioWithDeNovo(): string {
  const lines = gunzipSync(readFileSync(trioVcf)).toString('utf8').split('\n');
  const header = lines.find((l) => l.startsWith('#CHROM'))!.split('\t');
  const father = header.indexOf('HG003');
  let spiked = 0;
  const out = lines.map((l) => {
    const cols = l.split('\t');
    if (cols[0] !== SPIKED.chrom || cols[1] !== SPIKED.pos) return l;
    spiked++;
    cols[father] = '0/0:94,0:94:99:0,99,1498';
    return cols.join('\t');
  });
  expect(spiked).toBe(1);
  const dir = path.join(tmpdir(), 'rarelens-e2e-family');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'ashk-trio-denovo.vcf');
  writeFileSync(file, out.join('\n'));
  return file;
}

describe('a family case in the browser', () => {
  it('labels every field of the pedigree editor at phone width, where the column headers are hidden', async () => {
    const email = uniqueEmail('trio-phone');
    const { page, errors } = await signedInPage(env, email, { name: 'Lionel', surname: 'Penrose', birthDate: '1975-06-11' }, { width: 390, height: 844 });
    await page.goto('/upload');
    await page.locator('[data-testid="genome-dropzone"] input[type=file]').setInputFiles(trioVcf);
    await page.getByText('This VCF has 3 samples: HG002, HG003, HG004.').waitFor();
    await page.getByRole('radio', { name: 'Describe the family' }).check();
    const rows = page.getByTestId('pedigree-row');
    await expect.poll(() => rows.count(), poll).toBe(3);
    const fields = [
      { caption: 'Sample (as in the VCF)', control: (i: number) => `Sample ${i}` },
      { caption: 'Relation to the proband', control: (i: number) => `Relation of sample ${i}` },
      { caption: 'Sex', control: (i: number) => `Sex of sample ${i}` },
      { caption: 'Status', control: (i: number) => `Status of sample ${i}` },
    ];
    for (let i = 0; i < 3; i++) {
      const row = rows.nth(i);
      for (const f of fields) {
        // A caption a reader can see, right above the control it names.
        const caption = row.getByText(f.caption, { exact: true });
        await expect(caption.isVisible(), `row ${i + 1}: ${f.caption}`).resolves.toBe(true);
        const c = (await caption.boundingBox())!;
        const control = (await page.getByLabel(f.control(i + 1), { exact: true }).boundingBox())!;
        expect(Math.abs(c.x - control.x), f.caption).toBeLessThan(4);
        expect(control.y - (c.y + c.height), f.caption).toBeGreaterThanOrEqual(0);
        expect(control.y - (c.y + c.height), f.caption).toBeLessThan(12);
      }
    }
    await page.getByTestId('pedigree-editor').screenshot({ path: screenshotPath('family-upload-editor-phone') });
    // The PED and relatives' VCF pickers look like buttons, not bare text ("Choose File No file chosen").
    await page.getByRole('radio', { name: 'PED file' }).check();
    for (const name of ['PED file', 'Relatives’ VCFs']) {
      const button = await page.locator(`input[type=file][aria-label="${name}"]`).evaluate((el) => {
        const s = getComputedStyle(el, '::file-selector-button');
        return { border: s.borderTopWidth, background: s.backgroundColor };
      });
      expect(button.border, name).not.toBe('0px');
      expect(button.background, name).not.toBe('rgba(0, 0, 0, 0)');
    }
    expect(errors).toEqual([]);
  });

  it('uploads a trio with the pedigree editor and filters the variants to de novo', async () => {
    const email = uniqueEmail('trio');
    const { page, errors } = await signedInPage(env, email, { name: 'Mary', surname: 'Lyon', birthDate: '1980-05-15' }, { width: 1440, height: 900 });

    await page.goto('/upload');
    await page.getByLabel('Case ID').fill('TRIO-E2E-1');
    await page.getByText('Male', { exact: true }).click();
    await page.getByLabel('Clinical symptoms').fill('Seizures and global developmental delay since infancy.');
    const box = page.getByRole('combobox', { name: 'HPO terms' });
    await box.fill('seizure');
    await page.getByRole('option', { name: /^Seizure\b/ }).first().click();
    await page.getByTestId('hpo-chip').filter({ hasText: 'Seizure' }).waitFor();
    await page.locator('[data-testid="genome-dropzone"] input[type=file]').setInputFiles(trioWithDeNovo());
    await page.getByLabel('Genome assembly').selectOption('GRCh37');
    // The editor starts from the VCF's samples, read in the browser.
    await page.getByText('This VCF has 3 samples: HG002, HG003, HG004.').waitFor();
    await page.getByRole('radio', { name: 'Describe the family' }).check();
    const rows = page.getByTestId('pedigree-row');
    await expect.poll(() => rows.count(), poll).toBe(3);
    await expect(page.getByLabel('Sample 1', { exact: true }).inputValue()).resolves.toBe('HG002');
    await expect(page.getByLabel('Relation of sample 2', { exact: true }).inputValue()).resolves.toBe('father');
    await expect(page.getByLabel('Relation of sample 3', { exact: true }).inputValue()).resolves.toBe('mother');
    await page.getByLabel('Status of sample 2', { exact: true }).selectOption('unaffected');
    await page.getByLabel('Status of sample 3', { exact: true }).selectOption('unaffected');
    await page.screenshot({ path: screenshotPath('family-upload-editor-desktop'), fullPage: true });

    await page.getByRole('button', { name: 'Upload and analyse' }).click();
    await page.waitForURL('**/home', { timeout: 60_000 });
    const status = page.locator('[data-case-id="TRIO-E2E-1"] [data-testid="case-status"]');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 180_000, interval: 500 }).toBe('Completed');

    // The case page: pedigree drawing and the trio's Mendelian QC.
    await page.getByRole('link', { name: 'Open results of TRIO-E2E-1' }).click();
    await page.waitForURL('**/phenotypes');
    const familyPanel = page.getByTestId('family-panel');
    await familyPanel.waitFor();
    await expect(familyPanel.getByTestId('trio-qc').innerText()).resolves.toMatch(/Trio HG002 \(HG003 × HG004\): Mendelian error rate/);

    // Variants filtered to de novo: the spiked MACF1 call, with every member's genotype.
    const productId = new URL(page.url()).pathname.split('/')[2]!;
    await page.goto(`/my-product/${productId}/phenotypes?view=variants&mode=non-clustered`);
    await page.getByTestId('variant-row').first().waitFor();
    await page.getByRole('button', { name: 'Inheritance: Any' }).click();
    await page.getByRole('checkbox', { name: 'De novo' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/inheritance=de_novo/);
    const variantRows = page.getByTestId('variant-row');
    await expect
      .poll(async () => {
        const texts = await variantRows.allInnerTexts();
        return texts.length > 0 && texts.every((t) => t.includes('De novo')) ? texts.some((t) => t.includes('MACF1')) : texts.join(' | ');
      }, poll)
      .toBe(true);
    const macf1 = variantRows.filter({ hasText: 'MACF1' }).first();
    const genotypes = await macf1.getByTestId('family-genotypes').innerText();
    expect(genotypes.replace(/\s+/g, ' ')).toBe('HG002 0/1 HG003 0/0 HG004 0/0');
    await page.screenshot({ path: screenshotPath('family-variants-de-novo-desktop'), fullPage: true });

    // The gene screen names the mode that fits, with how the family fits it.
    await page.goto(`/my-product/${productId}/genes`);
    const geneRow = page.getByTestId('gene-row').filter({ hasText: 'MACF1' }).first();
    await expect.poll(() => geneRow.innerText(), poll).toMatch(/AD · de novo/);
    expect(errors).toEqual([]);
  });
});
