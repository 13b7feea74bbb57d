/** Shared by the FASTQ tests: the shipped reads, the tools they need, and longer read sets. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
/** RARELENS_SOURCES, or the reference data beside the repository. */
export const sourcesDir = path.resolve(process.env.RARELENS_SOURCES ?? path.join(repoRoot, '../shared/data'));
/** 17,486 real NA12878 reads on hg19 chrM (the demo reference). */
export const na12878Reads = path.join(sourcesDir, 'reads/NA12878.chrM_hg19.reads.fastq.gz');

/** bwa, samtools and bcftools are on PATH. */
export const readsToolsInstalled = ['bwa', 'samtools', 'bcftools'].every((t) => {
  try {
    execFileSync('sh', ['-c', `command -v ${t}`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
});

/** The NA12878 chrM reads `copies` times over (names made unique), gzip: an alignment that lasts. */
export function repeatedReads(copies: number): Buffer {
  const lines = gunzipSync(readFileSync(na12878Reads)).toString('utf8').split('\n').filter((l) => l !== '');
  const out: string[] = [];
  for (let c = 1; c <= copies; c++) {
    for (let i = 0; i < lines.length; i += 4) out.push(`${lines[i]!.split(/\s/)[0]}_c${c}`, lines[i + 1]!, '+', lines[i + 3]!);
  }
  return gzipSync(`${out.join('\n')}\n`, { level: 1 });
}
