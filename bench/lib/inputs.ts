/**
 * What every benchmark reads the same way: the checkout root, the input folders (env
 * RARELENS_SOURCES, RARELENS_BENCH, RARELENS_KB; defaults beside the checkout) and the value
 * after a `--name` on its command line.
 */
import { resolve } from 'node:path';

/** The repository checkout the benchmarks run in. */
export const ROOT = resolve(import.meta.dirname, '../..');

export interface BenchInputs {
  /** Raw data (HPO, ClinVar, VCFs, liftover chains...). */
  sources: string;
  /** Benchmark cases (phenopackets-dev.jsonl.gz...). */
  benchDir: string;
  /** The built knowledge base. */
  kbDir: string;
}

export function benchInputs(root: string = ROOT): BenchInputs {
  return {
    sources: process.env.RARELENS_SOURCES ?? resolve(root, '../shared/data'),
    benchDir: process.env.RARELENS_BENCH ?? resolve(root, '../shared/bench'),
    kbDir: process.env.RARELENS_KB ?? resolve(root, 'data/kb'),
  };
}

/** The value after `--name` on the command line; undefined when the option is absent. */
export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name, 2);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The number after `--name`, or `fallback` when the option is absent; a value that is not a number is an error. */
export function numberArg(name: string, fallback: number): number {
  const value = arg(name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || Number.isNaN(n)) throw new Error(`${name} takes a number, got '${value}'`);
  return n;
}

/** Exomiser's Pfeiffer example exome (GRCh37, with its spiked FGFR2 variant), below RARELENS_SOURCES. */
export const PFEIFFER_EXOME = 'vcf/Pfeiffer.hg19.vcf.gz';

/** HPO terms of Pfeiffer syndrome that the benchmarks give with the Pfeiffer exome. */
export const PFEIFFER_TERMS: readonly string[] = ['HP:0000244', 'HP:0011304', 'HP:0001770', 'HP:0000327', 'HP:0000486'];

/**
 * Whether a phenopacket variant's alleles are bases that can be written into a VCF record as they
 * are. A few cases give a structural variant as REF "N" and ALT "DEL" (a label, not an allele);
 * the VCF reader refuses such a record, so the spiking benchmarks leave it out of the case's
 * file (the case then ranks on its other alleles, or counts as a miss), while case eligibility,
 * and with it the deterministic samples, stays as it was.
 */
export function hasSequenceAlleles(v: { ref?: string | null; alt?: string | null }): boolean {
  return /^[ACGTN]+$/i.test(v.ref ?? '') && /^[ACGTN]+$/i.test(v.alt ?? '') && !/^N+$/i.test(v.ref ?? '');
}
