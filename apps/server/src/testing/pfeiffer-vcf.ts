/** The Pfeiffer exome of the reference data, and a small cut of it for fast integration tests. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { multipartBody, waitForStatus } from './multipart.ts';

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

/** Pfeiffer syndrome (OMIM:101600) features. */
export const PFEIFFER_TERMS = ['HP:0000244', 'HP:0011304', 'HP:0001770', 'HP:0000327', 'HP:0000486'];

/**
 * Uploads the whole Pfeiffer exome (GRCh37, male, the Pfeiffer features, assembly detected)
 * as case `caseId` and waits up to 4 minutes until its analysis ends; answers the case's id and
 * its final summary (Completed or Error, for the test to check).
 */
export async function uploadPfeifferExome(app: FastifyInstance, auth: Record<string, string>, caseId: string, symptoms: string) {
  const { body, contentType } = multipartBody(
    { caseId, gender: 'male', symptoms, hpoTerms: JSON.stringify(PFEIFFER_TERMS), assembly: 'auto' },
    [{ field: 'genomeFile', name: 'Pfeiffer.hg19.vcf.gz', content: readFileSync(pfeifferVcf) }],
  );
  const res = await app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': contentType }, payload: body });
  if (res.statusCode !== 202) throw new Error(`POST /api/products: ${res.statusCode} ${res.body}`);
  const id = res.json<{ id: string }>().id;
  return { id, done: await waitForStatus(app, auth, id, ['Completed', 'Error'], 240_000) };
}
