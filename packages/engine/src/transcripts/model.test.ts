/**
 * TranscriptIndex over the KB's packed transcript file (unpackTranscripts: string columns read by
 * row) against TranscriptIndex over the same transcripts as objects: same models, lookups by id
 * and gene, chromosomes, overlaps and columns.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGenomeKbFile } from '../kb/genome-kb.ts';
import { packTranscripts, unpackTranscripts, type TranscriptsFile } from '../kb/transcripts.build.ts';
import { toTranscriptColumns, TranscriptIndex, type Transcript } from './model.ts';

function tx(id: string, gene: string | null, chrom: string, start: number, over: Partial<Transcript> = {}): Transcript {
  return {
    id,
    gene,
    hgncId: gene ? `HGNC:${gene.length}` : null,
    chrom,
    strand: 1,
    start,
    end: start + 1000,
    cdsStart: start + 100,
    cdsEnd: start + 900,
    exonStarts: Int32Array.from([start, start + 500]),
    exonEnds: Int32Array.from([start + 200, start + 1000]),
    mane: null,
    ...over,
  };
}

const list: Transcript[] = [
  tx('NM_000001.2', 'GENEA', '1', 1000, { mane: 'select' }),
  tx('NM_000002', 'GENEA', '1', 1500, { strand: -1 }),
  tx('NR_000003', null, '1', 5000, { cdsStart: 5000, cdsEnd: 5000 }),
  tx('NM_000004.1', 'GENEB', '10', 100),
  // The same accession at two loci: the MANE copy wins get().
  tx('NM_000005.3', 'GENEC', '2', 700),
  tx('NM_000005.3', 'GENEC', 'X', 700, { mane: 'plus_clinical' }),
  tx('NM_000005.3', 'GENEC', 'Y', 900, { mane: 'select' }),
  tx('ENST0000006.1', 'GENEβ', 'MT', 10),
];
const packed = (l: Transcript[]): TranscriptIndex => new TranscriptIndex(unpackTranscripts(JSON.parse(JSON.stringify(packTranscripts('test', l))) as TranscriptsFile));

function expectSame(a: TranscriptIndex, b: TranscriptIndex, ids: string[], genes: string[], step = 1): void {
  expect(a.size).toBe(b.size);
  for (let i = 0; i < a.size; i += step) expect(a.model(i).tx).toEqual(b.model(i).tx);
  expect(a.chromosomes()).toEqual(b.chromosomes());
  for (const id of ids) expect(a.get(id)?.tx, id).toEqual(b.get(id)?.tx);
  for (const g of genes) expect(a.forGene(g).map((m) => m.tx), g).toEqual(b.forGene(g).map((m) => m.tx));
}

describe('TranscriptIndex over the packed transcript file', () => {
  it('gives the models, lookups, overlaps and columns of the transcripts it was packed from', () => {
    const plain = new TranscriptIndex(list);
    const fromKb = packed(list);
    expectSame(fromKb, plain, ['NM_000001', 'NM_000001.2', 'NM_000002', 'NM_000005', 'NM_000005.9', 'ENST0000006.1', 'NM_999'], ['GENEA', 'GENEB', 'GENEC', 'GENEβ', 'GENE', '']);
    // The first copy with any MANE status wins (X: MANE Plus Clinical, before Y's MANE Select).
    expect(fromKb.get('NM_000005')?.tx.chrom).toBe('X');
    for (const [chrom, from, to] of [['1', 900, 1600], ['1', 2600, 4999], ['2', 0, 10_000], ['X', 1600, 1700], ['MT', 0, 1], ['3', 0, 1e9]] as const) {
      expect(fromKb.overlapping(chrom, from, to, 50).map((m) => m.tx.id)).toEqual(plain.overlapping(chrom, from, to, 50).map((m) => m.tx.id));
    }
    expect(fromKb.columns()).toEqual(toTranscriptColumns(list));
    // Columns given as arrays (the KB writer's) index the same way.
    expectSame(new TranscriptIndex(toTranscriptColumns(list)), plain, ['NM_000005'], ['GENEC']);
  });

  it('still refuses transcripts that are not sorted or not contiguous by chromosome', () => {
    const file = JSON.parse(JSON.stringify(packTranscripts('test', list))) as TranscriptsFile;
    const chrom = file.tx.str.chrom!.split('\t');
    [chrom[0], chrom[chrom.length - 1]] = [chrom[chrom.length - 1]!, chrom[0]!];
    file.tx.str.chrom = chrom.join('\t');
    expect(() => new TranscriptIndex(unpackTranscripts(file))).toThrow(/not (sorted|contiguous)/);
  });

  const kb = process.env.RARELENS_KB;
  // The KB's transcripts file: a container (.bin) or, built before the containers, .json.
  const hasFile = !!kb && ['bin', 'json'].some((ext) => existsSync(join(kb, 'genome', `transcripts.grch38.${ext}`)));
  it.skipIf(!hasFile)('agrees with the column arrays on the real KB', async () => {
    const fromKb = new TranscriptIndex(unpackTranscripts(await readGenomeKbFile<TranscriptsFile>(join(kb!, 'genome'), 'transcripts.grch38')));
    const arrays = new TranscriptIndex(fromKb.columns());
    expect(fromKb.size).toBeGreaterThan(10_000);
    const ids: string[] = [];
    const genes: string[] = [];
    for (let i = 0; i < fromKb.size; i += 211) {
      ids.push(fromKb.model(i).tx.id);
      if (fromKb.model(i).tx.gene) genes.push(fromKb.model(i).tx.gene!);
    }
    expectSame(fromKb, arrays, ids, genes.slice(0, 10), 13);
  });
});
