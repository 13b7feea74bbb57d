/**
 * GeneIndex over the packed KB table (what loadGenomeKb gives) against GeneIndex over the same
 * records as objects: the records read by row from the packed string columns, and the alias
 * lookups answered by searching the packed columns before any alias map is built, must be those
 * of the plain records and their alias map.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGenomeKbFile } from '../kb/genome-kb.ts';
import { StrColumn, TableView, type PackedTable } from '../kb/io.ts';
import { GeneIndex, packGenes, type GeneRecord } from './gene.ts';

function gene(symbol: string, over: Partial<GeneRecord> = {}): GeneRecord {
  return {
    symbol,
    hgncId: `HGNC:${symbol.length}${symbol.charCodeAt(0)}`,
    name: `${symbol} gene`,
    locusGroup: 'protein-coding gene',
    locusType: 'gene with protein product',
    location: '1p36',
    aliases: [],
    previousSymbols: [],
    entrezId: null,
    ensemblId: null,
    omimIds: [],
    maneSelect: null,
    span38: null,
    constraint: null,
    alphaMissenseMean: null,
    clinvar: null,
    ...over,
  };
}

/** Records as the packed table gives them back (what packing keeps), for comparison. */
const roundTrip = (genes: GeneRecord[]): GeneRecord[] => [...new GeneIndex(JSON.parse(JSON.stringify(packGenes(genes))) as PackedTable).all()];

describe('StrColumn', () => {
  it('reads and compares every field as split("\\t") does, and finds the row of any offset', () => {
    for (const fields of [[''], ['a'], ['', ''], ['abc', '', 'de', ''], ['x', 'yy', 'zzz', 'PKBβ', '']]) {
      const text = fields.join('\t');
      const col = new StrColumn(text, fields.length);
      expect(col.length).toBe(fields.length);
      expect(Array.from({ length: fields.length + 2 }, (_, i) => col.get(i - 1))).toEqual([undefined, ...text.split('\t'), undefined]);
      for (let i = -1; i <= fields.length; i++) {
        for (const probe of [...fields, 'a', 'ab', 'abcd', 'x\tyy', '']) expect(col.equals(i, probe), `${JSON.stringify(text)} #${i} ${probe}`).toBe(fields[i] === probe);
      }
      let row = 0;
      for (let at = 0; at < text.length; at++) {
        expect(col.rowOf(at), `${JSON.stringify(text)} @${at}`).toBe(row);
        if (text[at] === '\t') row++;
      }
    }
    expect(new StrColumn('', 0).length).toBe(0);
    expect(new StrColumn('', 0).get(0)).toBeUndefined();
    // The row count only sizes the scan: a column with more or fewer fields reads as split('\t') does.
    const text = Array.from({ length: 40 }, (_, i) => 'f'.repeat(i % 4)).join('\t');
    for (const n of [1, 2, 7, 39, 40, 41, 100]) {
      const col = new StrColumn(text, n);
      expect(col.length, `n ${n}`).toBe(40);
      expect(Array.from({ length: 41 }, (_, i) => col.get(i)), `n ${n}`).toEqual([...text.split('\t'), undefined]);
      expect(col.rowOf(text.length - 1), `n ${n}`).toBe(39);
    }
    const view = new TableView({ n: 3, i32: {}, f64: {}, str: { s: 'a\tb\tc' } });
    expect(view.strColumn('s')).toBe(view.strColumn('s'));
    expect(() => view.strColumn('missing')).toThrow(/no string column 'missing'/);
  });
});

describe('GeneIndex over the packed table', () => {
  const genes: GeneRecord[] = [
    gene('TP53', { aliases: ['p53', 'LFS1'], previousSymbols: [], omimIds: ['191170'], entrezId: '7157', ensemblId: 'ENSG00000141510' }),
    gene('AKT2', { aliases: ['PKBβ', 'PRKBB'], span38: { chrom: '19', start: 40230317, end: 40285536, strand: '-' } }),
    // 'SHARED' is listed by two genes: ambiguous, no answer.
    gene('GENEA', { aliases: ['SHARED', 'ONLYA'], previousSymbols: ['OLDA'] }),
    gene('GENEB', { aliases: ['SHARED'], previousSymbols: ['OLDB', 'OLDA-LIKE'] }),
    // Listed twice by the same gene (previous symbol and alias): the map counts it twice, so no answer either.
    gene('GENEC', { aliases: ['TWICE'], previousSymbols: ['TWICE'] }),
    // An alias that is a prefix, a suffix and a part of others, and one equal to another gene's symbol.
    gene('GENED', { aliases: ['OLD', 'A-LIKE', 'TP53'], maneSelect: { refseq: 'NM_1.2', ensembl: null } }),
    gene('GENEE', { constraint: { pLI: 0.5, loeuf: 0.9, oeLof: 0.7, misZ: 1.2, oeMis: 0.9, source: 'gnomAD v4.1', transcript: 'ENST1' }, clinvar: { totalAlleles: 3, plpAlleles: 1, uncertain: 1, conflicts: null, plpLof: 1, plpMissense: 0, blbMissense: 0 } }),
  ];
  const queries = ['p53', 'P53', 'lfs1', 'pkbβ', 'PKBΒ', 'prkbb', 'SHARED', 'ONLYA', 'OLDA', 'olda-like', 'OLDB', 'TWICE', 'OLD', 'A-LIKE', 'LIKE', 'OLDA|ONLYA', 'SHARED\tONLYA', 'NOPE', 'tp53', 'GENEE', 'GENE'];

  it('materialises the records it was packed from', () => {
    const packed = new GeneIndex(JSON.parse(JSON.stringify(packGenes(genes))) as PackedTable);
    expect([...packed.all()]).toEqual(roundTrip(genes));
    expect(packed.at(1).aliases).toEqual(['PKBβ', 'PRKBB']);
  });

  it('answers alias lookups by search as the alias map does', () => {
    const plain = new GeneIndex(roundTrip(genes));
    const packed = new GeneIndex(JSON.parse(JSON.stringify(packGenes(genes))) as PackedTable);
    const want = queries.map((q) => plain.bySymbolOrAlias(q)?.symbol ?? null);
    // The first ALIAS_SCANS_BEFORE_MAP lookups search; later ones use the map: both must agree.
    for (let round = 0; round < 3; round++) expect(queries.map((q) => packed.bySymbolOrAlias(q)?.symbol ?? null)).toEqual(want);
    expect(want).toEqual(['TP53', 'TP53', 'TP53', 'AKT2', 'AKT2', 'AKT2', null, 'GENEA', 'GENEA', 'GENEB', 'GENEB', null, 'GENED', 'GENED', null, null, null, null, 'TP53', 'GENEE', null]);
  });

  const kb = process.env.RARELENS_KB;
  // The KB's genes file: a container (.bin) or, built before the containers, .json.
  const hasGenes = !!kb && ['bin', 'json'].some((ext) => existsSync(join(kb, 'genome', `genes.${ext}`)));
  it.skipIf(!hasGenes)('agrees with the alias map on a sample of the aliases and previous symbols of the real KB', async () => {
    const table = await readGenomeKbFile<PackedTable>(join(kb!, 'genome'), 'genes');
    const records = [...new GeneIndex(table).all()];
    expect(records.length).toBeGreaterThan(10_000);
    const plain = new GeneIndex(records);
    const names = [...new Set(records.flatMap((g) => [...g.aliases, ...g.previousSymbols]))];
    // Every 97th name, in both cases, each batch on a fresh index (lookups answered by search).
    let compared = 0;
    for (let start = 0; start < names.length; start += 97 * 15) {
      const packed = new GeneIndex(table);
      for (let k = start; k < Math.min(names.length, start + 97 * 15); k += 97) {
        for (const q of [names[k]!, names[k]!.toLowerCase()]) {
          expect(packed.bySymbolOrAlias(q)?.hgncId ?? null, q).toBe(plain.bySymbolOrAlias(q)?.hgncId ?? null);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });
});
