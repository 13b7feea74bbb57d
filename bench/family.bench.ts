/**
 * Family benchmark (issue 13): `npm run bench:family`.
 *  (a) The real GIAB Ashkenazi trio (HG002 son, HG003 father, HG004 mother; the first 9,940 records
 *      of the GATK joint exome calls, chr1-chr2) with its PED, through the product's path
 *      (analyseVcfCase with the pedigree): Mendelian error rate, parentage checks, de novo calls
 *      before and after QC, candidates left after segregation.
 *  (b) Simulated trios from the dev cases: the proband is Exomiser's Pfeiffer exome (lifted to
 *      GRCh38) with the case's causal variant(s) spiked in; the parents' genotypes at background
 *      sites are real GIAB genotype triples (GT:AD:DP:GQ of HG002/HG003/HG004 at a PASS site where
 *      the son has the same dose), drawn with a fixed seed, so background de novo noise and
 *      Mendelian errors come at the rate a real trio shows. Causal variants get parents consistent
 *      with the case: one heterozygous variant -> de novo (dominant); two heterozygous -> one from
 *      each parent (compound heterozygous); homozygous -> two carrier parents; hemizygous (X) ->
 *      carrier mother. Each case runs twice through analyseVcfCase: with the PED (trio) and the
 *      proband alone (no PED), same file, same defaults.
 *
 * Usage: npm run bench:family -- [--sample N] [--seed S]
 * Env: RARELENS_SOURCES (default ../shared/data), RARELENS_KB (default ./data/kb), RARELENS_BENCH (../shared/bench).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  analyseVcfCase,
  DEFAULT_FAMILY_WEIGHTS,
  filterCandidates,
  parsePed,
  prepareVariants,
  rank,
  variantFamilyEvidence,
  type HpoKb,
  type InheritanceTag,
  type VcfAnnotationSession,
} from '../packages/engine/src/index.ts';
import { formatMachine } from './lib/machine.ts';
import { arg, familyBenchPaths, openKbSession, simulatedTrios, type Pattern } from './lib/family-sim.ts';
import { ROOT as root } from './lib/inputs.ts';
import { addRank, causalGeneRank, emptyTopK, pct, type TopK } from './lib/ranks.ts';
import { bare } from './rank-spiked.ts';

const { sources, benchDir, kbDir, giabVcf: GIAB_VCF, giabPed: GIAB_PED } = familyBenchPaths(root);

// ---------------------------------------------------------------- (a) GIAB trio

async function giabTrio(session: VcfAnnotationSession, kb: HpoKb): Promise<string[]> {
  const pedigree = parsePed(readFileSync(GIAB_PED, 'utf8'), 'ashk-trio.GIAB-AJ.ped');
  const t0 = performance.now();
  // Healthy reference samples: no phenotype is scored here (one generic term so the ranking runs).
  const r = await analyseVcfCase(session, kb, { path: GIAB_VCF, pedigree, phenotype: { hpoPresent: ['HP:0001250'] } });
  const ms = performance.now() - t0;
  const f = r.family;
  const qc = f.qc[0];
  const ctx = f.context;
  let apparent = 0;
  let apparentPass = 0;
  let confirmedPass = 0;
  for (const v of r.read.variants) {
    const e = variantFamilyEvidence(v, ctx);
    if (!e.deNovo) continue;
    apparent++;
    const pass = v.filter.length === 0 || v.filter.includes('PASS');
    if (pass) apparentPass++;
    if (pass && e.deNovo.level === 'confirmed') confirmedPass++;
  }
  const tags = Array.from(f.inheritance.values());
  const count = (t: InheritanceTag): number => tags.filter((x) => x.tags.includes(t)).length;
  const deNovoCandidates = f.candidates.filter((v) => f.inheritance.get(v)?.tags.includes('de_novo'));
  console.log(`GIAB trio: ${r.read.summary.records} records, ${r.read.variants.length} alleles, Mendelian error rate ${pct(qc.errors, qc.sites)} (QC ${pct(qc.qcErrors, qc.qcSites)}), de novo ${apparent} apparent -> ${confirmedPass} after QC -> ${deNovoCandidates.length} candidates, in ${(ms / 1000).toFixed(1)} s`);
  return [
    '## (a) The real GIAB Ashkenazi trio',
    '',
    `Data: \`vcf/ashk-trio.GIAB-AJ.exome.b37.head10k.vcf.gz\` + \`.ped\` (GIAB HG002/HG003/HG004, GATK joint exome calls, first 9,940 records: chr1 and chr2 up to 25.4 Mb, about a twentieth of an exome). Path: \`analyseVcfCase\` with the PED (the CLI's \`rarelens analyze --ped\`), GRCh37 lifted to GRCh38, product candidate filter. Read + annotate + family + rank: ${(ms / 1000).toFixed(1)} s.`,
    '',
    '| figure | value |',
    '| --- | --- |',
    `| records / alleles analysed | ${r.read.summary.records} / ${r.read.variants.length} (${r.read.summary.liftFailed.length} failed to lift) |`,
    `| Mendelian error rate, all autosomal sites called in the three | ${qc.errors} / ${qc.sites} = ${pct(qc.errors, qc.sites)} |`,
    `| Mendelian error rate, FILTER PASS and DP >= 10, GQ >= 20 in the three | ${qc.qcErrors} / ${qc.qcSites} = ${pct(qc.qcErrors, qc.qcSites)} |`,
    `| opposite homozygotes son-father (HG003) / son-mother (HG004) | ${qc.fatherCheck.oppositeHomozygotes} / ${qc.fatherCheck.homozygousSites} = ${pct(qc.fatherCheck.oppositeHomozygotes, qc.fatherCheck.homozygousSites)}; ${qc.motherCheck.oppositeHomozygotes} / ${qc.motherCheck.homozygousSites} = ${pct(qc.motherCheck.oppositeHomozygotes, qc.motherCheck.homozygousSites)} |`,
    `| trio QC verdict | ${qc.warning ?? 'passes (parentage confirmed, so de novo calls can take PS2)'} |`,
    `| apparent de novo alleles (son carries, both parents 0/0) | ${apparent} (${apparentPass} FILTER PASS) |`,
    `| de novo after genotype QC (PASS; DP >= 10, GQ >= 20 in all; no alt read in a parent; son AB 0.2-0.8; not homozygous) | **${confirmedPass}** |`,
    `| de novo candidates after QC and the product's candidate filter (gene, PASS, AF <= 2 %, protein-altering or ClinVar P, not ACMG benign) | **${deNovoCandidates.length}** (goal < 5 per real trio exome) |`,
    `| candidate variants of the son / tagged compound het / hom recessive / segregates | ${f.candidates.length} / ${count('compound_het')} / ${count('hom_recessive')} / ${count('segregates')} |`,
    '',
    'The PED gives the parents phenotype 0 (unknown; they are healthy reference samples), so segregation with affected status has no informative relative here: "segregates" counts de novo, carrier-parent homozygous and in-trans calls. This VCF carries no population frequencies and the KB has no gnomAD sites, so common polymorphisms pass the AF filter: that is why the candidate, compound-het and homozygous counts are high. The figures cover about a twentieth of an exome; a whole exome would give roughly 20 times the QC-passing de novo calls before the candidate filter, and this file cannot say how many candidates would remain (0 here).',
    '',
  ];
}

// ---------------------------------------------------------------- (b) simulated trios

async function simulatedTrioSection(session: VcfAnnotationSession, kb: HpoKb, sample: number, seed: number): Promise<string[]> {
  const { chosen, eligible: eligibleCount, step, background, pool, trios } = await simulatedTrios({ sources, benchDir, giabVcf: GIAB_VCF }, sample, seed);
  console.log(`Simulated trios: ${chosen.length} of ${eligibleCount} cases; background ${background.length} alleles; GIAB pool ${pool.byDose.get(1).length} het / ${pool.byDose.get(2).length} hom triples (${pool.deNovoLike} het with both parents 0/0)`);
  const trio = emptyTopK();
  const solo = emptyTopK();
  const byPattern = new Map<Pattern, { trio: TopK; solo: TopK }>();
  let candTrio = 0;
  let candSegregating = 0;
  let deNovoCands = 0;
  let causalTagged = 0;
  let causalTotal = 0;
  let ms = 0;
  for (const { k, c, sim, path, pedigree } of trios()) {
    const { sex, pattern, spikedKeys } = sim;
    const phenotype = { hpoPresent: c.hpo_present, hpoExcluded: c.hpo_excluded, sex };
    const t0 = performance.now();
    const withFamily = await analyseVcfCase(session, kb, { path, assembly: 'GRCh38', pedigree, phenotype }, { limit: 1000, explainTop: 10 });
    // Proband alone: the same read (the proband's genotypes) through the candidate filter and the
    // ranking without the family, as analyseVcfCase runs a single-sample case.
    const alone = rank(prepareVariants(filterCandidates(withFamily.read.variants).candidates), kb, phenotype, { limit: 1000, explainTop: 10 });
    ms += performance.now() - t0;
    const symbols = c.genes.map((g) => g.symbol);
    const rt = causalGeneRank(withFamily.ranking.genes, symbols);
    const rs = causalGeneRank(alone.genes, symbols);
    addRank(trio, rt);
    addRank(solo, rs);
    const bp = byPattern.get(pattern) ?? { trio: emptyTopK(), solo: emptyTopK() };
    addRank(bp.trio, rt);
    addRank(bp.solo, rs);
    byPattern.set(pattern, bp);
    const fam = withFamily.family;
    candTrio += fam.candidates.length;
    for (const v of fam.candidates) {
      const tags = fam.inheritance.get(v)?.tags ?? [];
      if (tags.includes('segregates')) candSegregating++;
      if (tags.includes('de_novo')) deNovoCands++;
      if (spikedKeys.has(`${bare(v.input.chrom)}:${v.input.pos}:${v.input.ref}:${v.input.alt}`)) {
        causalTotal++;
        if (tags.includes('segregates')) causalTagged++;
      }
    }
    if ((k + 1) % 25 === 0) console.log(`  ${k + 1}/${chosen.length}: trio top-1 ${pct(trio.top1, trio.n)} vs proband-only ${pct(solo.top1, solo.n)}; ${(ms / (k + 1) / 1000).toFixed(2)} s per case (both arms)`);
  }
  const n = chosen.length || 1;
  const row = (name: string, t: TopK): string => `| ${name} | ${t.n} | ${pct(t.top1, t.n)} | ${pct(t.top10, t.n)} |`;
  console.log(row('trio', trio));
  console.log(row('proband only', solo));
  const patternRows: string[] = [];
  for (const p of ['de_novo', 'compound_het', 'hom_recessive', 'x_linked', 'other'] as Pattern[]) {
    const b = byPattern.get(p);
    if (b) patternRows.push(`| ${p.replace('_', ' ')} | ${b.trio.n} | ${pct(b.trio.top1, b.trio.n)} | ${pct(b.solo.top1, b.solo.n)} | ${pct(b.trio.top10, b.trio.n)} | ${pct(b.solo.top10, b.solo.n)} |`);
  }
  return [
    '## (b) Simulated trios from the dev cases (trio vs proband alone)',
    '',
    `Cases: ${chosen.length} (every ${step.toFixed(2)}-th of the ${eligibleCount} dev cases whose causal variants all have coordinates; file order, no case chosen by id). Proband: Exomiser's Pfeiffer exome lifted to GRCh38 (${background.length} alleles, its spiked FGFR2 removed) with the case's causal variant(s). Parents at background sites: a real GIAB triple (HG002/HG003/HG004 GT:AD:DP:GQ at a PASS biallelic site where HG002 has the proband's dose; ${pool.byDose.get(1).length} het and ${pool.byDose.get(2).length} hom triples, ${pool.deNovoLike} of the het ones with both parents 0/0), drawn with seed ${seed}; proband fields from the same triple. Causal variants: one heterozygous -> de novo; two heterozygous -> one from each parent; homozygous -> carrier parents; hemizygous / X in a male -> carrier mother. PED: proband affected, parents unaffected. The trio arm runs \`analyseVcfCase\` with the PED; the proband-only arm ranks the same read (the proband's genotypes) through the candidate filter and \`rank\` without the family, as \`analyseVcfCase\` does for a single sample; same defaults.`,
    '',
    '| analysis | cases | gene top-1 | gene top-10 |',
    '| --- | --- | --- | --- |',
    row('trio (PED)', trio),
    row('proband only', solo),
    '',
    `Trio minus proband-only, gene top-1: **${((100 * (trio.top1 - solo.top1)) / n).toFixed(1)} points** (goal >= 10); top-10: ${((100 * (trio.top10 - solo.top10)) / n).toFixed(1)} points.`,
    '',
    '| causal pattern | cases | trio top-1 | proband top-1 | trio top-10 | proband top-10 |',
    '| --- | --- | --- | --- | --- | --- |',
    ...patternRows,
    '',
    `Candidate variants after the product filter: ${(candTrio / n).toFixed(1)} per case; left after segregation (tagged "segregates"): ${(candSegregating / n).toFixed(1)} per case; de novo candidates ${(deNovoCands / n).toFixed(2)} per case (the spiked de novo included). Causal variants tagged "segregates": ${causalTagged} / ${causalTotal}. Speed: ${(ms / n / 1000).toFixed(2)} s per case for both arms.`,
    '',
    'Limits: the background parents come from chr1-chr2 triples of one real trio, so an X-chromosome background variant of a son gets autosomal-style parents; the simulated parents share the proband\'s background only through these triples (no linkage between sites).',
    '',
  ];
}

async function main(): Promise<void> {
  const sample = Number(arg('--sample') ?? 150);
  const seed = Number(arg('--seed') ?? 13);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root }).toString().trim() !== '';
  console.log(`Machine: ${formatMachine()}`);
  const { kb, session } = await openKbSession(kbDir);
  const md = [
    '# Family benchmark (issue 13)',
    '',
    `Generated by \`npm run bench:family -- --sample ${sample} --seed ${seed}\` on ${new Date().toISOString().slice(0, 10)} at commit ${commit}${dirty ? ' (with uncommitted changes)' : ''}. Machine: ${formatMachine()}. KB ${kbDir}: HPO ${kb.versions.hpo}, annotations ${kb.versions.annotations}. Configuration: the shipped defaults of packages/engine (family constants in family/segregation.ts and family/genotypes.ts, ranking constants of rank-case.ts, candidate filter VARIANT_FILTERS). Gene ranks are pessimistic (ties count at their worst position).`,
    '',
    `Family evidence weights (DEFAULT_FAMILY_WEIGHTS): ${Object.entries(DEFAULT_FAMILY_WEIGHTS).map(([k, v]) => `${k} ${v}`).join(', ')}. The dominant penetrance and the de novo prior (inheritedInTrio) were chosen by cross-validation grouped by cohort (gene) on these simulated trios (bench/results/family-cv.md, with held-in and held-out figures: the figures below are held-in for those two); the others and the de novo QC thresholds (DP >= 10, GQ >= 20, allele balance 0.2-0.8) are published defaults (slivar/GATK trio QC, ACMG/ClinGen), not fitted.`,
    '',
  ];
  try {
    md.push(...(await giabTrio(session, kb)));
    md.push(...(await simulatedTrioSection(session, kb, sample, seed)));
  } finally {
    session.close();
  }
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/family.md'), md.join('\n') + '\n');
  console.log('Wrote bench/results/family.md');
}

await main();
