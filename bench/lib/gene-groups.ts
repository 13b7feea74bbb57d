/**
 * Session 16 experiment (issue 17 item 2; not product code): a phenotype profile for a gene with no
 * annotated disease, borrowed from the annotated diseases of its HGNC gene-group siblings
 * (hgnc_complete_set `gene_group_id`). The profile's likelihood ratio is a mixture: the mean over
 * the siblings that have an annotated disease of the mean LR of their diseases, i.e.
 * P(phenotype | "a disease like one of this gene's siblings'") / P(phenotype | background).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { HpoKb, PhenotypeModel } from '../../packages/engine/src/index.ts';

export interface GeneGroups {
  /** group id -> member symbols */
  members: Map<string, string[]>;
  /** symbol -> group ids */
  groupsOf: Map<string, string[]>;
}

/** Reads the HGNC complete set's gene groups; a data line without the expected columns is an error (file, line). */
export function loadGeneGroups(path: string): GeneGroups {
  const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n');
  const head = (lines[0] ?? '').split('\t');
  const iSym = head.indexOf('symbol');
  const iGrp = head.indexOf('gene_group_id');
  if (iSym < 0 || iGrp < 0) throw new Error(`${path}:1: no 'symbol' / 'gene_group_id' column`);
  const members = new Map<string, string[]>();
  const groupsOf = new Map<string, string[]>();
  lines.forEach((line, n) => {
    if (n === 0 || line === '') return;
    const f = line.split('\t');
    const sym = f[iSym];
    if (!sym || f.length <= iGrp) throw new Error(`${path}:${n + 1}: missing symbol or gene_group_id (${f.length} fields)`);
    const ids = (f[iGrp] ?? '').replace(/"/g, '').split('|').filter(Boolean);
    if (!ids.length) return;
    groupsOf.set(sym, ids);
    for (const id of ids) {
      const m = members.get(id) ?? [];
      m.push(sym);
      members.set(id, m);
    }
  });
  return { members, groupsOf };
}

const logMeanExp = (xs: readonly number[]): number => {
  if (!xs.length) return -Infinity;
  const m = Math.max(...xs);
  if (m === -Infinity) return -Infinity;
  let s = 0;
  for (const x of xs) s += Math.exp(x - m);
  return m + Math.log(s / xs.length);
};

const siblingDiseases = new WeakMap<PhenotypeModel, Map<string, number[][]>>();

/** The annotated disease indices (of `model`) of each gene-group sibling of `symbol` with at least one. */
function siblingsOf(groups: GeneGroups, kb: HpoKb, model: PhenotypeModel, symbol: string, maxGroup: number): number[][] {
  let memo = siblingDiseases.get(model);
  if (!memo) siblingDiseases.set(model, (memo = new Map<string, number[][]>()));
  const key = `${maxGroup}\t${symbol}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const sibs = new Set<string>();
  for (const id of groups.groupsOf.get(symbol) ?? []) {
    const m = groups.members.get(id) ?? [];
    if (m.length > maxGroup) continue;
    for (const s of m) if (s !== symbol) sibs.add(s);
  }
  const out: number[][] = [];
  for (const s of sibs) {
    const ds: number[] = [];
    for (const l of kb.genes.get(s)?.diseases ?? []) {
      if (l.association === 'POLYGENIC') continue;
      const d = model.diseaseIndex.get(l.id);
      if (d !== undefined) ds.push(d);
    }
    if (ds.length) out.push(ds);
  }
  memo.set(key, out);
  return out;
}

/**
 * ln LR of the gene-group profile of `symbol` for one case (`pheno`: the case's ln LR per disease
 * index of `model`), or null when no sibling (in a group of at most `maxGroup` members) has an
 * annotated disease.
 */
export function groupProfileLn(groups: GeneGroups, kb: HpoKb, model: PhenotypeModel, pheno: ArrayLike<number>, symbol: string, maxGroup = Infinity): number | null {
  const sibs = siblingsOf(groups, kb, model, symbol, maxGroup);
  if (!sibs.length) return null;
  return logMeanExp(sibs.map((ds) => logMeanExp(ds.map((d) => pheno[d] ?? 0))));
}

/**
 * ClinVar's gene-specific summary (clinvar_gene_specific_summary.txt): per gene symbol the number of
 * alleles reported pathogenic / likely pathogenic ('-' = none). A data line with fewer than six
 * fields or a count that is not a number is an error (file, line).
 */
export function loadClinvarGeneSummary(path: string): Map<string, number> {
  const out = new Map<string, number>();
  gunzipSync(readFileSync(path)).toString('utf8').split('\n').forEach((line, n) => {
    if (line === '' || line.startsWith('#')) return;
    const f = line.split('\t');
    const sym = f[0];
    const plp = f[5]?.trim();
    if (!sym || plp === undefined) throw new Error(`${path}:${n + 1}: expected at least 6 tab-separated fields, got ${f.length}`);
    if (plp !== '-' && !/^\d+$/.test(plp)) throw new Error(`${path}:${n + 1}: Alleles_reported_Pathogenic_Likely_pathogenic '${plp}' is not a count`);
    out.set(sym, plp === '-' ? 0 : Number(plp));
  });
  return out;
}
