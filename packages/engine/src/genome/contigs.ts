/**
 * Contig naming: one canonical name per primary human contig ('1'..'22', 'X', 'Y', 'MT'),
 * whatever the source calls it (UCSC 'chr1', RefSeq 'NC_000001.11', GenBank 'CM000663.2',
 * Ensembl '1'). Non-primary contigs keep their name, minus a UCSC 'chr' prefix.
 */

import type { Assembly } from '../types.ts';

export const PRIMARY_CONTIGS: readonly string[] = [
  '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17',
  '18', '19', '20', '21', '22', 'X', 'Y', 'MT',
];

/** One value per primary contig, given in PRIMARY_CONTIGS order ('1'..'22', 'X', 'Y', 'MT'). */
function perPrimaryContig<T>(values: readonly T[]): Readonly<Record<string, T>> {
  if (values.length !== PRIMARY_CONTIGS.length) throw new RangeError(`expected ${PRIMARY_CONTIGS.length} values (one per primary contig), got ${values.length}`);
  return Object.fromEntries(PRIMARY_CONTIGS.map((name, i) => [name, values[i] as T]));
}

/** Primary contig lengths (bp). MT is the rCRS (16,569 bp) in both GRCh37 and GRCh38. */
export const CONTIG_LENGTHS: Readonly<Record<Assembly, Readonly<Record<string, number>>>> = {
  GRCh37: perPrimaryContig([
    249250621, 243199373, 198022430, 191154276, 180915260, 171115067, 159138663, 146364022, 141213431,
    135534747, 135006516, 133851895, 115169878, 107349540, 102531392, 90354753, 81195210, 78077248,
    59128983, 63025520, 48129895, 51304566, 155270560, 59373566, 16569,
  ]),
  GRCh38: perPrimaryContig([
    248956422, 242193529, 198295559, 190214555, 181538259, 170805979, 159345973, 145138636, 138394717,
    133797422, 135086622, 133275309, 114364328, 107043718, 101991189, 90338345, 83257441, 80373285,
    58617616, 64444167, 46709983, 50818468, 156040895, 57227415, 16569,
  ]),
};

/** The hg19 (UCSC) chrM is the Yoruba mitochondrion, not the rCRS used by GRCh37 'MT'. */
export const HG19_CHRM_LENGTH = 16571;

// RefSeq NC_ accession number per primary contig (NC_000001..NC_000024 are chr1..22, X, Y;
// NC_012920 is the rCRS mitochondrion) with its version per assembly; GenBank CM0006xx
// accessions per assembly (GRCh37: CM000663.1.., GRCh38: CM000663.2..).
const REFSEQ_NUMBER: Readonly<Record<string, string>> = perPrimaryContig(PRIMARY_CONTIGS.map((name, i) => (name === 'MT' ? '012920' : String(i + 1).padStart(6, '0'))));
const REFSEQ_VERSION: Readonly<Record<Assembly, Readonly<Record<string, number>>>> = {
  GRCh37: perPrimaryContig([10, 11, 11, 11, 9, 11, 13, 10, 11, 10, 9, 11, 10, 8, 9, 9, 10, 9, 9, 10, 8, 10, 10, 9, 1]),
  GRCh38: perPrimaryContig([11, 12, 12, 12, 10, 12, 14, 11, 12, 11, 10, 12, 11, 9, 10, 10, 11, 10, 10, 11, 9, 11, 11, 10, 1]),
};

interface AliasInfo {
  name: string;
  /** The assembly this alias pins down (versioned RefSeq/GenBank accessions), if any. */
  assembly: Assembly | null;
}

const ALIASES = new Map<string, AliasInfo>();

function addAlias(alias: string, name: string, assembly: Assembly | null): void {
  ALIASES.set(alias, { name, assembly });
}

for (const name of PRIMARY_CONTIGS) {
  addAlias(name, name, null);
  addAlias(`chr${name}`, name, null);
  const num = REFSEQ_NUMBER[name];
  if (num === undefined) continue;
  for (const assembly of ['GRCh37', 'GRCh38'] as const) {
    const version = REFSEQ_VERSION[assembly][name];
    if (version === undefined) continue;
    // NC_012920.1 (rCRS) is shared by both assemblies.
    addAlias(`NC_${num}.${version}`, name, name === 'MT' ? null : assembly);
  }
  addAlias(`NC_${num}`, name, null);
}
addAlias('chrM', 'MT', null);
addAlias('M', 'MT', null);
addAlias('chrMT', 'MT', null);
addAlias('23', 'X', null);
addAlias('24', 'Y', null);
addAlias('chr23', 'X', null);
addAlias('chr24', 'Y', null);
// GenBank: CM000663..CM000686 are chr1..22, X, Y; version .1 is GRCh37, .2 is GRCh38.
for (let i = 0; i < 24; i++) {
  const name = PRIMARY_CONTIGS[i];
  if (name === undefined) continue;
  const acc = `CM000${663 + i}`;
  addAlias(`${acc}.1`, name, 'GRCh37');
  addAlias(`${acc}.2`, name, 'GRCh38');
  addAlias(acc, name, null);
}
addAlias('J01415.2', 'MT', null);

/**
 * Canonical contig name: primary contigs map to '1'..'22', 'X', 'Y', 'MT'; UCSC scaffold and
 * alt names map to their GenBank accession ('chr1_KI270706v1_random' -> 'KI270706.1',
 * 'chrUn_gl000225' -> 'GL000225.1'); other contigs lose a leading 'chr' and are kept verbatim.
 */
export function normalizeContig(name: string): string {
  const hit = ALIASES.get(name);
  if (hit !== undefined) return hit.name;
  if (name.length > 3 && (name.startsWith('chr') || name.startsWith('Chr') || name.startsWith('CHR'))) {
    const rest = name.slice(3);
    const restHit = ALIASES.get(rest);
    if (restHit !== undefined) return restHit.name;
    return scaffoldAccession(rest) ?? rest;
  }
  return scaffoldAccession(name) ?? name;
}

// UCSC names of unplaced/unlocalised scaffolds and alt haplotypes carry the GenBank accession:
// hg19 'chrUn_gl000225', 'chr1_gl000191_random' (version 1 implied); hg38
// 'chr14_GL000225v1_random', 'chr1_KI270766v1_alt'. Ensembl/NCBI call them 'GL000225.1'.
const UCSC_SCAFFOLD = /^(?:[0-9XYMTUn]{1,2}_)?([A-Za-z]{2})(\d{6})(?:v(\d+))?(?:_random|_alt|_fix)?$/;

function scaffoldAccession(name: string): string | null {
  if (!name.includes('_') && !/^[a-z]{2}\d{6}$/.test(name)) return null;
  const m = UCSC_SCAFFOLD.exec(name);
  if (m === null) return null;
  return `${m[1]!.toUpperCase()}${m[2]!}.${m[3] ?? '1'}`;
}

/** The assembly that a versioned accession (NC_000001.11, CM000663.2) pins down, or null. */
export function assemblyOfContigAlias(name: string): Assembly | null {
  return ALIASES.get(name)?.assembly ?? null;
}

/** True for '1'..'22', 'X', 'Y', 'MT' (after normalisation). */
export function isPrimaryContig(name: string): boolean {
  const hit = ALIASES.get(name);
  return hit !== undefined && hit.name === name;
}

/** RefSeq accession (e.g. 'NC_000010.11') of a primary contig in an assembly, or null. */
export function refseqAccession(name: string, assembly: Assembly): string | null {
  const canonical = normalizeContig(name);
  const num = REFSEQ_NUMBER[canonical];
  const version = REFSEQ_VERSION[assembly][canonical];
  return num === undefined || version === undefined ? null : `NC_${num}.${version}`;
}
