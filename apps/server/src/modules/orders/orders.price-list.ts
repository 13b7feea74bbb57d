/**
 * The price list: plans (per case per month), add-ons (per case) and currency. The spec does not
 * show prices (§1, §9), so these defaults are ours and documented in the README; an installation
 * sets its own with RARELENS_PRICE_LIST=<file.json> (same shape, validated at boot).
 */
import { readFileSync } from 'node:fs';
import { PriceList, type PriceListInput } from '@rarelens/contract';

export const DEFAULT_PRICE_LIST: PriceList = PriceList.parse({
  currency: 'EUR',
  maxCasesPerMonth: 1000,
  plans: [
    {
      code: 'basic',
      name: 'Basic',
      summary: 'For occasional cases and first evaluations.',
      pricePerCase: 4900,
      features: ['VCF upload', 'Phenotype-driven gene and variant ranking', 'Phenotype and gene lists', 'Report generation'],
    },
    {
      code: 'standard',
      name: 'Standard',
      summary: 'For clinics and labs with a steady flow of cases.',
      pricePerCase: 8900,
      features: ['Everything in Basic', 'PhenomeAI symptom mapping', 'Sharing with colleagues', 'Genome browser tracks'],
      isFeatured: true,
    },
    {
      code: 'advanced',
      name: 'Advanced',
      summary: 'For high-volume diagnostic teams.',
      pricePerCase: 14900,
      features: ['Everything in Standard', 'GenomeTalks assistant', 'Priority support', 'Onboarding for your team'],
    },
  ],
  addOns: [
    {
      code: 'raw-data-analysis',
      name: 'Raw data analysis (FASTQ to VCF)',
      description: 'Upload FASTQ reads: alignment and variant calling before the analysis.',
      pricePerCase: 3500,
    },
  ],
} satisfies PriceListInput);

/** Reads and validates a price-list file; every problem names the file and the field. */
export function loadPriceList(file: string): PriceList {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`RARELENS_PRICE_LIST: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = PriceList.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`RARELENS_PRICE_LIST: ${file} is not a valid price list (${problems.join('; ')})`);
  }
  return parsed.data;
}
