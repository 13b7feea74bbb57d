import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_REFERENCE_LABEL, describeReference, referenceConfig } from './reference.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'reference-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('describeReference (what the upload form says about the reference)', () => {
  it('labels the embedded default as the demo reference when its files are there', async () => {
    const sources = path.join(dir, 'sources');
    mkdirSync(path.join(sources, 'reads'), { recursive: true });
    writeFileSync(path.join(sources, 'reads/chrM_hg19.fa'), '>chrM\nACGT\n');
    writeFileSync(path.join(sources, 'reads/demo20.hg19_chr20_excerpt.fa'), '>demo20\nACGT\n');
    expect(await describeReference(() => referenceConfig({ sourcesDir: sources }))).toEqual({ label: DEMO_REFERENCE_LABEL, assembly: 'GRCh37', demo: true, error: null });
  });

  it('names a configured genome, and says which variable is wrong otherwise', async () => {
    const fasta = path.join(dir, 'GRCh38.fa');
    writeFileSync(fasta, '>chr1\nACGT\n');
    expect(await describeReference(() => referenceConfig({ reference: fasta, assembly: 'GRCh38' }))).toEqual({ label: 'GRCh38.fa (GRCh38)', assembly: 'GRCh38', demo: false, error: null });
    const noAssembly = await describeReference(() => referenceConfig({ reference: fasta }));
    expect(noAssembly).toMatchObject({ demo: false, assembly: null });
    expect(noAssembly.error).toMatch(/RARELENS_REFERENCE_ASSEMBLY/);
    const missing = await describeReference(() => referenceConfig({ reference: path.join(dir, 'absent.fa'), assembly: 'GRCh37' }));
    expect(missing.error).toMatch(/absent\.fa cannot be read .*RARELENS_REFERENCE/);
  });
});
