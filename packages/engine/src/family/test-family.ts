/** Builders for family tests (not part of the public entry). */
import { buildVariant } from '../rank/test-builders.ts';
import type { AnnotatedVariant, Genotype, Zygosity } from '../types.ts';
import { parsePed } from './ped.ts';
import { checkFamily, type Family } from './pedigree.ts';

/** A family from PED text whose samples are all in the VCF (in PED order). */
export function familyFromPed(ped: string, proband?: string): Family {
  const p = parsePed(ped, 'test.ped');
  const { family, problems } = checkFamily(p, p.members.map((m) => m.id), { proband });
  if (!family) throw new Error(problems.map((x) => x.message).join('; '));
  return family;
}

const ZYG: Record<string, Zygosity> = { '0/0': 'reference', '0/1': 'heterozygous', '1/0': 'heterozygous', '1/1': 'homozygous', '1': 'hemizygous', '0': 'reference', './.': 'no_call', '.': 'no_call' };

/** A genotype from 'GT' or 'GT:DP:GQ' (AD derived from DP and the GT). */
export function gt(spec: string): Genotype {
  const [g, dp, gq] = spec.split(':');
  const z = ZYG[g ?? ''] ?? 'unknown';
  const out: Genotype = { gt: g ?? '', zygosity: z };
  if (dp !== undefined) {
    out.depth = Number(dp);
    const alt = z === 'heterozygous' ? Math.round(Number(dp) / 2) : z === 'homozygous' || z === 'hemizygous' ? Number(dp) : 0;
    out.alleleDepths = [Number(dp) - alt, alt];
  }
  if (gq !== undefined) out.genotypeQuality = Number(gq);
  return out;
}

/** A proband variant with every member's genotype: `genotypes` maps sample -> 'GT[:DP:GQ]'; `proband` names the proband. */
export function familyVariant(proband: string, genotypes: Record<string, string>, o: Parameters<typeof buildVariant>[0] = {}): AnnotatedVariant {
  const fg: Record<string, Genotype> = {};
  for (const [s, spec] of Object.entries(genotypes)) fg[s] = gt(spec);
  const own = fg[proband];
  if (!own) throw new Error(`no genotype for the proband ${proband}`);
  const v = buildVariant({ ...o, zygosity: own.zygosity });
  return { ...v, genotype: own, familyGenotypes: fg };
}
