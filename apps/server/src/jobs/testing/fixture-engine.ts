/**
 * A small AnalysisEngine for testing the job plumbing (queue, progress, idempotent writes,
 * crash recovery) without a built knowledge base. It reads VCFs with the real engine reader
 * (so parse errors are the real ones) and takes annotations from INFO fields of the fixture:
 * GENE, CSQ (SO term), AF, ACMG (class). Genes are ranked by the number of patient HPO terms
 * listed for them in `genePhenotypes`, then by their best variant score.
 */
import type { AnnotatedVariant, VcfVariant } from '@rarelens/engine';
import { createFamilyRun, openCaseVcf, type AnalysisEngine, type RankingValue } from '../analysis-engine.ts';

const ACMG_POINTS: Record<string, number> = {
  Pathogenic: 10,
  'Likely pathogenic': 7,
  'Uncertain significance': 2,
  'Likely benign': -2,
  Benign: -7,
};

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function annotate(v: VcfVariant): AnnotatedVariant {
  const acmgClass = (str(v.info('ACMG'))?.replace(/_/g, ' ') ?? 'Uncertain significance') as AnnotatedVariant['acmg']['classification'];
  const consequence = str(v.info('CSQ')) ?? 'intergenic_variant';
  const af = v.info('AF');
  const points = ACMG_POINTS[acmgClass] ?? 0;
  return {
    chrom: v.chrom,
    pos: v.pos,
    ref: v.ref,
    alt: v.alt,
    input: v.input,
    assembly: 'GRCh38',
    genotype: v.genotype,
    filter: v.filter,
    qual: v.qual,
    gene: str(v.info('GENE')),
    hgncId: null,
    transcript: null,
    consequences: [consequence],
    impact: consequence === 'stop_gained' ? 'HIGH' : consequence === 'missense_variant' ? 'MODERATE' : 'LOW',
    hgvsC: null,
    hgvsP: null,
    af: typeof af === 'number' ? af : null,
    clinvar: null,
    acmg: {
      classification: acmgClass,
      points,
      criteria: [{ code: 'PM2', strength: 'Supporting', points: 1, reason: 'fixture criterion' }],
    },
    score: Math.max(0, Math.min(1, (points + 7) / 17)),
  };
}

export interface FixtureEngineOptions {
  /** gene symbol -> HPO terms of its (single) fixture disease. */
  genePhenotypes: Record<string, string[]>;
  /** Pause after each variant (ms), to make jobs slow enough to interrupt. */
  delayMs?: number;
  /** Where a gene's fixture disease's phenotype comes from ('annotations' unless named here). */
  diseaseSources?: Record<string, 'series' | 'disease-name'>;
}

export function createFixtureEngine(opts: FixtureEngineOptions): AnalysisEngine {
  return {
    softwareVersion: 'fixture-1',
    kbVersions: { hpo: 'fixture', clinvar: 'none', transcripts: 'none', assembly: 'GRCh38' },
    async annotate(input) {
      const { reader, family, withFamily } = await openCaseVcf(input);
      const delay = opts.delayMs ?? 0;
      async function* variants(): AsyncGenerator<AnnotatedVariant> {
        for await (const v of reader) {
          if (delay > 0) await new Promise((r) => setTimeout(r, delay));
          yield withFamily(annotate(v), v);
        }
      }
      return {
        inputAssembly: reader.assembly,
        family,
        variants: variants(),
        counts: () => ({ records: reader.summary.records, alleles: reader.summary.alleles }),
      };
    },
    isRankCandidate: (v) => v.gene !== null && (v.af === null || v.af <= 0.01),
    familyRun: (family) => createFamilyRun(family, null),
    rank(candidates, patient): RankingValue {
      const best = new Map<string, number>();
      for (const v of candidates) if (v.gene) best.set(v.gene, Math.max(best.get(v.gene) ?? 0, v.score));
      const genes = [...best.entries()].map(([symbol, variantScore]) => {
        const terms = opts.genePhenotypes[symbol] ?? [];
        const phenotypeScore = patient.hpoTerms.filter((t) => terms.includes(t)).length / Math.max(1, patient.hpoTerms.length);
        return { symbol, variantScore, phenotypeScore, score: 0.5 * variantScore + 0.5 * phenotypeScore };
      });
      genes.sort((a, b) => b.score - a.score || a.symbol.localeCompare(b.symbol));
      const total = genes.reduce((s, g) => s + g.score, 0);
      return {
        genes: genes.map((g) => ({
          ...g,
          probability: total > 0 ? g.score / total : 0,
          hgncId: null,
          inheritance: ['Autosomal dominant inheritance'],
          explanation: [`fixture: phenotype ${g.phenotypeScore.toFixed(2)}, variant ${g.variantScore.toFixed(2)}`],
          phenotypeSource: g.phenotypeScore > 0 ? { source: 'annotations' as const, disease: { id: `FIXTURE:${g.symbol}`, label: `${g.symbol} syndrome` } } : { source: 'none' as const, disease: null },
          diseases: [{ id: `FIXTURE:${g.symbol}`, label: `${g.symbol} syndrome` }],
        })),
        diseases: genes
          .filter((g) => g.phenotypeScore > 0)
          .map((g) => ({
            id: `FIXTURE:${g.symbol}`,
            name: `${g.symbol} syndrome`,
            mergedIds: [],
            score: g.phenotypeScore,
            probability: g.phenotypeScore,
            inheritance: [{ id: 'HP:0000006', label: 'Autosomal dominant inheritance' }],
            onset: [],
            genes: [g.symbol],
            matchedTerms: patient.hpoTerms
              .filter((t) => (opts.genePhenotypes[g.symbol] ?? []).includes(t))
              .map((t) => ({ id: t, label: t, match: 'exact', diseaseTermId: t, diseaseTermLabel: t })),
            explanation: ['fixture disease'],
            phenotypeSource: opts.diseaseSources?.[g.symbol] ?? ('annotations' as const),
          })),
      };
    },
    geneFacts: (symbol) => ({
      hgncId: null,
      name: `${symbol} fixture gene`,
      chromosome: '1',
      locusType: 'gene with protein product',
      description: null,
      synonyms: [],
      onset: [],
    }),
  };
}
