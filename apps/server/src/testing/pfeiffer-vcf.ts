/** The Pfeiffer exome of the reference data, and a small cut of it for fast integration tests. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
export const kbDir = path.resolve(process.env.RARELENS_KB ?? path.join(repoRoot, 'data/kb'));
export const sourcesDir = path.resolve(process.env.RARELENS_SOURCES ?? path.join(repoRoot, '../shared/data'));
export const pfeifferVcf = path.join(sourcesDir, 'vcf/Pfeiffer.hg19.vcf.gz');
/** True when the KB is built and the reference exome is there: the real engine can run. */
export const hasRealEngine = existsSync(path.join(kbDir, 'manifest.json')) && existsSync(pfeifferVcf);

/** Header, the first 300 records of the exome and every record around FGFR2 (GRCh37). */
export function smallPfeifferVcf(): string {
  const lines = gunzipSync(readFileSync(pfeifferVcf)).toString('utf8').split('\n');
  const header = lines.filter((l) => l.startsWith('#'));
  const records = lines.filter((l) => l !== '' && !l.startsWith('#'));
  const fgfr2 = records.filter((l) => {
    const [chrom, pos] = l.split('\t');
    return chrom === '10' && Number(pos) > 123_200_000 && Number(pos) < 123_400_000;
  });
  return [...header, ...records.slice(0, 300), ...fgfr2].join('\n') + '\n';
}
