/**
 * The pedigree of an upload (multipart `pedigreeFile`, `probandSample`), checked against the
 * VCF's samples before the case is queued: the PED parses, every PED sample is in the VCF, one
 * proband, parents listed with consistent sexes, no cycles. Each problem is an issue on the
 * field at fault naming the sample, so the form can show them all at once.
 */
import { checkFamily, parsePed, PedParseError, type PedigreeMember } from '@rarelens/engine';

export const PEDIGREE_FIELD = 'pedigreeFile';
export const PROBAND_FIELD = 'probandSample';
/** Separately called VCFs of the relatives (repeatable; one person per file). */
export const RELATIVES_FIELD = 'relativeGenomeFiles';
/** A PED file is a few lines; anything this large is not one. */
export const MAX_PED_BYTES = 1 << 20;

export type PedigreeCheck =
  | { ok: true; members: PedigreeMember[]; proband: string; notes: string[] }
  | { ok: false; issues: { path: string[]; message: string }[] };

/** Checks uploaded PED text against the VCF's sample names. */
export function checkPedigreeUpload(pedText: string, fileName: string, vcfSamples: readonly string[], probandSample: string | null): PedigreeCheck {
  let members: PedigreeMember[];
  try {
    members = parsePed(pedText, fileName).members;
  } catch (e) {
    if (e instanceof PedParseError) return { ok: false, issues: [{ path: [PEDIGREE_FIELD], message: e.message }] };
    throw e;
  }
  const { family, problems } = checkFamily({ source: fileName, members }, vcfSamples, { proband: probandSample });
  if (!family) {
    return {
      ok: false,
      issues: problems.map((p) => ({ path: [p.code === 'proband_not_found' || p.code === 'proband_ambiguous' ? PROBAND_FIELD : PEDIGREE_FIELD], message: p.message })),
    };
  }
  const inFamily = new Set(family.members.map((m) => m.id));
  return { ok: true, members: members.filter((m) => inFamily.has(m.id)), proband: family.proband, notes: family.notes };
}

/**
 * The samples of separately called VCFs (the genome file first, then each relative's file): one
 * person per file, each person once. Returns the samples in file order, or the issues (on the
 * field of the file at fault, naming the file and the sample).
 */
export function checkSeparateVcfs(
  files: readonly { field: string; name: string; samples: readonly string[] }[],
): { ok: true; samples: string[] } | { ok: false; issues: { path: string[]; message: string }[] } {
  const issues: { path: string[]; message: string }[] = [];
  const seen = new Map<string, string>();
  for (const f of files) {
    if (f.samples.length !== 1) {
      issues.push({
        path: [f.field],
        message: f.samples.length
          ? `${f.name} holds ${f.samples.length} samples (${f.samples.join(', ')}): separately called VCFs are merged one person per file; send a joint-called family VCF as the genome file alone instead`
          : `${f.name} has no sample column: a person's VCF needs one genotype column`,
      });
      continue;
    }
    const sample = f.samples[0]!;
    const other = seen.get(sample);
    if (other !== undefined) issues.push({ path: [f.field], message: `${f.name}: sample ${sample} is also the sample of ${other}; each person once` });
    else seen.set(sample, f.name);
  }
  return issues.length ? { ok: false, issues } : { ok: true, samples: files.map((f) => f.samples[0]!) };
}
