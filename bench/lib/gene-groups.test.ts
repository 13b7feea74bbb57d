import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { HpoKb } from '../../packages/engine/src/kb/hpo-kb.ts';
import type { PhenotypeModel } from '../../packages/engine/src/phenotype/model.ts';
import { groupProfileLn, loadClinvarGeneSummary, loadGeneGroups } from './gene-groups.ts';

const write = (text: string): string => {
  const p = join(mkdtempSync(join(tmpdir(), 'gg-')), 'hgnc.txt.gz');
  writeFileSync(p, gzipSync(Buffer.from(text)));
  return p;
};
const hgnc = ['hgnc_id\tsymbol\tgene_group_id', 'H:1\tNEW\t"10|20"', 'H:2\tA\t10', 'H:3\tB\t10', 'H:4\tC\t20', 'H:5\tLONE\t', ''].join('\n');

describe('gene-group profile (session 16 experiment)', () => {
  it('reads the groups of each gene, and names the file and line of a broken record', () => {
    const g = loadGeneGroups(write(hgnc));
    expect(g.groupsOf.get('NEW')).toEqual(['10', '20']);
    expect(g.members.get('10')).toEqual(['NEW', 'A', 'B']);
    expect(g.groupsOf.has('LONE')).toBe(false);
    const bad = write('hgnc_id\tsymbol\tgene_group_id\nH:1\n');
    expect(() => loadGeneGroups(bad)).toThrow(`${bad}:2: missing symbol or gene_group_id`);
    expect(() => loadGeneGroups(write('hgnc_id\tname\n'))).toThrow(/:1: no 'symbol'/);
  });

  it('is the mean LR over the siblings with an annotated disease (each the mean over its diseases); none without such a sibling', () => {
    const g = loadGeneGroups(write(hgnc));
    // A has diseases 0 and 1, C has disease 2, B none.
    const links = (ids: string[]) => ({ diseases: ids.map((id) => ({ id, association: 'MENDELIAN' })) });
    const kb = { genes: new Map([['A', links(['D0', 'D1'])], ['C', links(['D2'])], ['B', links([])]]) } as unknown as HpoKb;
    const model = { diseaseIndex: new Map([['D0', 0], ['D1', 1], ['D2', 2]]) } as unknown as PhenotypeModel;
    const pheno = [Math.log(8), Math.log(2), Math.log(4)];
    // A: mean(8, 2) = 5; C: 4; group profile mean(5, 4) = 4.5.
    expect(groupProfileLn(g, kb, model, pheno, 'NEW')).toBeCloseTo(Math.log(4.5), 12);
    // Groups larger than maxGroup are left out: group 10 has 3 members, group 20 two.
    expect(groupProfileLn(g, kb, model, pheno, 'NEW', 2)).toBeCloseTo(Math.log(4), 12);
    expect(groupProfileLn(g, kb, model, pheno, 'LONE')).toBeNull();
    expect(groupProfileLn(g, kb, model, pheno, 'B', 2)).toBeNull();
  });

  it('reads ClinVar gene-summary P/LP counts (\'-\' is none) and names the file and line of a bad count', () => {
    const head = '#Overview\n#Symbol\tGeneID\tTotal_submissions\tTotal_alleles\tSubmissions_reporting_this_gene\tAlleles_reported_Pathogenic_Likely_pathogenic\n';
    const m = loadClinvarGeneSummary(write(`${head}AAA\t1\t6\t6\t-\t-\nBBB\t2\t9\t8\t3\t4\t123\n`));
    expect(m.get('AAA')).toBe(0);
    expect(m.get('BBB')).toBe(4);
    const bad = write(`${head}AAA\t1\t6\t6\t-\tmany\n`);
    expect(() => loadClinvarGeneSummary(bad)).toThrow(`${bad}:3: Alleles_reported_Pathogenic_Likely_pathogenic 'many' is not a count`);
    const short = write(`${head}AAA\t1\n`);
    expect(() => loadClinvarGeneSummary(short)).toThrow(`${short}:3: expected at least 6`);
  });
});
