import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kbVersionRows, limitationsOf, renderReportPdf } from './report.pdf.ts';
import { draftInterpretation, type ReportFamily } from './report.model.ts';
import { buildDiseaseRow, buildReportModel, buildVariantRow } from './testing/builders.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'rarelens-pdf-unit-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function textOf(pdf: Buffer, name: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/** Each of `parts` stands in the PDF's text. */
function expectTextOf(text: string, parts: string[]): void {
  for (const part of parts) expect(text, part).toContain(part);
}

describe('kbVersionRows', () => {
  it('lists HPO, ClinVar and the transcript set once each, with the build named', () => {
    expect(
      kbVersionRows({ hpo: '2025-05-06', 'hpo-ontology': '2025-05-06', 'clinvar-grch38': '2026-02-26', 'clinvar-grch37': '2016-09', 'mane-summary': '1.4', assembly: 'GRCh38', hgnc: '2024-10-18', 'gnomad-constraint-v4': 'v4.1' }),
    ).toEqual([
      ['HPO release', '2025-05-06'],
      ['ClinVar', '2026-02-26 (GRCh38); 2016-09 (GRCh37)'],
      ['Transcript set', '1.4 (MANE Select)'],
      ['Gene set (HGNC)', '2024-10-18'],
      ['Other sources', 'gnomad-constraint-v4 v4.1'],
    ]);
  });
});

describe('limitationsOf', () => {
  it('states the missing genome-wide frequencies only when no gnomAD sites source is installed', () => {
    const without = limitationsOf(buildReportModel());
    expect(without.some((l) => l.includes('No genome-wide population frequency database'))).toBe(true);
    const model = buildReportModel();
    model.run!.kbVersions['gnomad-sites-grch38'] = 'v4.1';
    expect(limitationsOf(model).some((l) => l.includes('No genome-wide population frequency database'))).toBe(false);
    expect(without.some((l) => /copy-number variants/.test(l))).toBe(true);
    expect(without.some((l) => /lifted over to GRCh38; variants that failed liftover \(3\)/.test(l))).toBe(true);
  });
});

describe('renderReportPdf', () => {
  it('never leaves a section heading alone at the foot of a page (its first lines or table header go with it)', async () => {
    const headings = ['VARIANTS', 'VARIANT EVIDENCE', 'GENES IN THE RANKING', 'ASSOCIATED DISEASES', 'INTERPRETATION', 'TEST AND METHOD', 'LIMITATIONS', 'REFERENCES', 'SIGN-OFF'];
    const orphans: string[] = [];
    // Longer and longer indications move every later heading down the page, a few points at a time.
    for (let n = 0; n < 14; n++) {
      const model = buildReportModel({
        genes: [{ symbol: 'FGFR2', rank: 1, score: 4.34, probability: 0.83 }],
        product: { ...buildReportModel().product, symptoms: `${'Broad thumbs and halluces since birth. '.repeat(1 + n * 3)}` },
      });
      const { pdf, pageCount } = await renderReportPdf(model);
      const file = path.join(tmp, `orphans-${n}.pdf`);
      writeFileSync(file, pdf);
      for (let p = 1; p <= pageCount; p++) {
        const lines = execFileSync('pdftotext', ['-layout', '-f', String(p), '-l', String(p), file, '-'], { encoding: 'utf8' })
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '' && !l.startsWith('Report ') && !l.startsWith('RareLens Clinical genome report'));
        const last = lines.at(-1) ?? '';
        if (p < pageCount && headings.includes(last)) orphans.push(`indication ${n}: page ${p} ends with ${last}`);
      }
    }
    expect(orphans).toEqual([]);
  }, 120_000);

  it('lists the selected variants’ genes with the genes screen’s post-test probability and labelled score', async () => {
    const model = buildReportModel({
      variants: [buildVariantRow(), buildVariantRow({ id: 2, gene: 'MSX2', pos: 174728000 })],
      genes: [
        { symbol: 'FGFR2', rank: 1, score: 5.1234, probability: 0.8912 },
        { symbol: 'MSX2', rank: 7, score: -0.8, probability: null },
      ],
    });
    const text = textOf((await renderReportPdf(model)).pdf, 'genes.pdf');
    expectTextOf(text, [
      'GENES IN THE RANKING',
      'Gene Rank Post-test probability Score (log10) Selected variants',
      'FGFR2 1 89% 5.12 1',
      'MSX2 7 not computed (ranked before it existed) -0.80 1',
      'Post-test probability that this gene is the cause',
      'It compares the genes of this case only and is not a probability.',
    ]);
    const none = textOf((await renderReportPdf(buildReportModel({ genes: [] }))).pdf, 'no-genes.pdf');
    expect(none).toContain('None of the selected variants is in a ranked gene.');
  });

  it('writes the case, variant, KB versions, Unicode text and page numbers as selectable text', async () => {
    const { pdf, pageCount } = await renderReportPdf(buildReportModel());
    expectTextOf(textOf(pdf, 'unicode.pdf'), [
      'Dr Müller',
      '≥ 97th centile',
      'FGFR2 NM_000141.5:c.1694A>C p.(Glu565Ala)',
      'HPO release 2025-05-06',
      'PS1, PM2_Supporting, PP3_Moderate',
      'Seizure (HP:0001250)',
      `Page ${pageCount} of ${pageCount}`,
      'Ada Lovelace <ada@example.org>',
    ]);
  });

  it('lists an age-of-onset term as the age of onset, apart from the phenotype terms', async () => {
    const model = buildReportModel();
    model.product.hpoTerms = [...model.product.hpoTerms, { id: 'HP:0011463', label: 'Childhood onset', onset: true }, { id: 'HP:0003593', label: 'Infantile onset', onset: true }];
    model.product.onset = { id: 'HP:0003593', label: 'Infantile onset', onset: true };
    const text = textOf((await renderReportPdf(model)).pdf, 'onset.pdf');
    expectTextOf(text, ['Broad thumb (HP:0011304); Brachyturricephaly (HP:0000244)', 'Age of onset', 'Infantile onset (HP:0003593); also given, not used (the earliest onset is used): Childhood onset (HP:0011463)']);
    expect(text).not.toContain('Brachyturricephaly (HP:0000244); Infantile onset');
  });

  it('states the expected codon outcome of a variant whose codon is not known, and only then', async () => {
    const details = { acmgNotAssessed: [], otherGenes: [], geneConstraint: null, codingOutcome: [{ term: 'missense_variant', p: 0.71 }, { term: 'synonymous_variant', p: 0.29 }] };
    const unknown = buildReportModel({ variants: [buildVariantRow({ consequence: 'coding_sequence_variant', hgvsP: null, details })] });
    expectTextOf(textOf((await renderReportPdf(unknown)).pdf, 'codon.pdf'), [
      'Expected codon outcome probably missense (P = 0.71; synonymous P = 0.29; codon not known without the reference sequence)',
    ]);
    expect(textOf((await renderReportPdf(buildReportModel())).pdf, 'known-codon.pdf')).not.toContain('Expected codon outcome');
  });

  it('lists the variants, their evidence and the interpretation in one order: the finding that fits the phenotype first', async () => {
    // Pfeiffer exome: FGFR2 (VUS) explains the patient's terms, LTBP4 (Likely pathogenic) does not.
    const fgfr2 = buildVariantRow({ id: 1, rank: 1, acmgClass: 'Uncertain significance' });
    const ltbp4 = buildVariantRow({
      id: 7, rank: 7, chrom: '19', pos: 40619683, ref: 'C', alt: 'CG', gene: 'LTBP4', transcript: 'NM_001042545.2', consequence: 'frameshift_variant',
      hgvsC: 'c.3032_3033insG', hgvsP: null, zygosity: 'homozygous', clinvarSignificance: null, clinvar: null, acmgClass: 'Likely pathogenic',
      acmgCriteria: [{ code: 'PVS1', strength: 'VeryStrong', points: 8, reason: 'null variant' }],
    });
    const cutisLaxa = buildDiseaseRow({ diseaseId: 'OMIM:613177', rank: 40, name: 'Cutis laxa, autosomal recessive, type IC', genes: ['LTBP4'], matchedTerms: [{ id: 'HP:0011304', label: 'Broad thumb', match: 'partial' }] });
    const diseases = [buildDiseaseRow(), cutisLaxa];
    const variants = [ltbp4, fgfr2];
    const model = buildReportModel({ variants, diseases, interpretation: draftInterpretation(variants, diseases) });
    const text = textOf((await renderReportPdf(model)).pdf, 'order.pdf');
    const section = (from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to, text.indexOf(from)));
    const firstOf = (part: string) => (part.indexOf('FGFR2') < part.indexOf('LTBP4') ? 'FGFR2' : 'LTBP4');
    expect(firstOf(section('INTERPRETATION', 'TEST AND METHOD'))).toBe('FGFR2');
    expect(firstOf(section('VARIANT EVIDENCE', 'ASSOCIATED DISEASES'))).toBe('FGFR2');
    const table = section('Transcript / HGVS', 'VARIANT EVIDENCE');
    expect(firstOf(table)).toBe('FGFR2');
    expect(table).toContain('Variants are listed in the order of the interpretation: findings whose associated disease explains features of the patient first');
    // The summary names the pathogenic finding as before.
    expect(text).toContain('including 1 classified as pathogenic or likely pathogenic: LTBP4');
  });

  it('states a mitochondrial call as homoplasmic or heteroplasmic with its read fraction, never hemizygous', async () => {
    const mito = (over: Parameters<typeof buildVariantRow>[0]) => buildVariantRow({ chrom: 'MT', ref: 'A', alt: 'G', gene: 'MT-TL1', transcript: null, hgvsC: null, hgvsP: null, consequence: 'non_coding_transcript_exon_variant', ...over });
    const variants = [
      mito({ id: 1, pos: 3243, zygosity: 'heteroplasmic', genotype: { gt: '0/1', zygosity: 'heterozygous', heteroplasmy: 0.3412 } }),
      mito({ id: 2, pos: 3244, zygosity: 'homoplasmic', genotype: { gt: '1', zygosity: 'hemizygous', heteroplasmy: 0.995 } }),
      // An analysis stored before heteroplasmy was read: its haploid call says "hemizygous".
      mito({ id: 3, pos: 3245, zygosity: 'hemizygous', genotype: { gt: '1', zygosity: 'hemizygous' } }),
    ];
    const text = textOf((await renderReportPdf(buildReportModel({ variants, interpretation: draftInterpretation(variants, []) }))).pdf, 'mito.pdf');
    expectTextOf(text, ['heteroplasmic, 34.1 % of reads (0/1)', 'homoplasmic, 99.5 % of reads (1)', 'mitochondrial, level unknown (1)', '(34.1 % of reads) was identified in MT-TL1', '(heteroplasmy level unknown) was identified in MT-TL1']);
    expect(text).not.toMatch(/hemizygous/i);
  });

  it('falls back to Helvetica when DejaVu is not installed', async () => {
    const { pdf } = await renderReportPdf(buildReportModel(), { fontDir: path.join(tmp, 'no-fonts') });
    expect(textOf(pdf, 'helvetica.pdf')).toContain('FGFR2');
  });

  it('repeats the header on every page of a long report', async () => {
    const variants = Array.from({ length: 40 }, (_, i) => buildVariantRow({ id: i + 1, pos: 1000 + i, gene: `GENE${i + 1}` }));
    const { pdf, pageCount } = await renderReportPdf(buildReportModel({ variants }));
    expect(pageCount).toBeGreaterThan(3);
    const text = textOf(pdf, 'long.pdf');
    expect(text.match(/Case CASE-7 · Report date 2026-11-21/g)?.length).toBe(pageCount);
    for (let p = 1; p <= pageCount; p++) expect(text).toContain(`Page ${p} of ${pageCount}`);
    expect(text).toContain('GENE40');
  });

  it('keeps every word of the variant table header whole, and lists as matched only the terms the disease matched', async () => {
    const base = buildReportModel();
    const disease = base.diseases[0]!;
    const matchedTerms = [
      ...(disease.matchedTerms as object[]),
      { id: 'HP:0011800', label: 'Midface retrusion', match: 'unmatched', diseaseTermId: null, diseaseTermLabel: null },
      { id: 'HP:0000365', label: 'Hearing impairment', match: 'partial', diseaseTermId: 'HP:0000356', diseaseTermLabel: 'Abnormality of the outer ear' },
    ];
    const text = textOf((await renderReportPdf({ ...base, diseases: [{ ...disease, matchedTerms }] })).pdf, 'header-words.pdf');
    expectTextOf(text, ['Consequence', 'Population AF', 'Broad thumb, Brachyturricephaly, Hearing impairment']);
    expect(text).not.toContain('Midface retrusion');
  });

  it('notes an empty reporting list and no associated disease instead of their tables', async () => {
    const base = buildReportModel();
    const full = textOf((await renderReportPdf(base)).pdf, 'full.pdf');
    expect(full).toContain('Transcript / HGVS');
    expect(full).toContain('Matched patient phenotypes');
    expect(full).not.toContain('No variants were selected in the reporting list.');
    expect(full).not.toContain('No ranked disease involves the selected genes.');
    const empty = textOf((await renderReportPdf({ ...base, variants: [], diseases: [] })).pdf, 'empty.pdf');
    expectTextOf(empty, ['No variants were selected in the reporting list.', 'No ranked disease involves the selected genes.']);
    expect(empty).not.toContain('Transcript / HGVS');
    expect(empty).not.toContain('Matched patient phenotypes');
  });

  it('says that a case without terms was ranked without a phenotype, and where read terms came from', async () => {
    const base = buildReportModel();
    const bare = textOf((await renderReportPdf({ ...base, product: { ...base.product, hpoTerms: [] } })).pdf, 'bare.pdf');
    expect(bare).toContain('No HPO terms: this case is ranked on its variants alone, without a phenotype.');
    const read = textOf(
      (await renderReportPdf({ ...base, product: { ...base.product, hpoTermsSource: 'phenome' } })).pdf,
      'read.pdf',
    );
    expect(read).toContain('read from the symptoms by PhenomeAI');
    // A sentence after the terms, not a bracket holding a bracket and a full stop.
    expect(read).toMatch(/\(HP:\d{7}\)\. HPO terms read from the symptoms by PhenomeAI \(none were given\)\./);
    expect(read).not.toContain('given).)');
  });

  it('lists the family members, each variant\'s genotypes with the segregation evidence, and the trio QC', async () => {
    const base = buildReportModel();
    const id = base.variants[0]!.id;
    const family: ReportFamily = {
      proband: 'HG002',
      members: [
        { id: 'HG002', relation: 'proband', sex: 'male', status: 'affected', father: 'HG003', mother: 'HG004', sequenced: true },
        { id: 'HG003', relation: 'father', sex: 'male', status: 'unaffected', father: null, mother: null, sequenced: true },
        { id: 'HG004', relation: 'mother', sex: 'female', status: 'unaffected', father: null, mother: null, sequenced: true },
      ],
      qc: [{ child: 'HG002', father: 'HG003', mother: 'HG004', sites: 9860, errors: 87, qcSites: 8810, qcErrors: 14, qcRate: 14 / 8810, warning: null }],
      notes: [],
      variants: {
        [id]: {
          genotypes: { HG002: { gt: '0/1', depth: 48, genotypeQuality: 99 }, HG003: { gt: '0/0', depth: 40, genotypeQuality: 99 }, HG004: { gt: '0/0', depth: 35, genotypeQuality: 90 } },
          inheritance: ['de_novo', 'segregates'],
          rules: ['de novo: absent from both parents with adequate coverage'],
        },
      },
    };
    expectTextOf(textOf((await renderReportPdf({ ...base, family })).pdf, 'family.pdf'), [
      'FAMILY AND SEGREGATION',
      'HG003 × HG004',
      '0/1 · DP 48 · GQ 99',
      'de novo, segregates with the phenotype',
      'FGFR2: de novo: absent from both parents with adequate coverage',
      'Mendelian error rate 0.16 % (14 of 8810 quality-passing sites; 87 of 9860 before quality filters). Parentage consistent with the pedigree.',
    ]);
  });
});

// The NA12878 chrM FASTQ on the demo reference (input contig "chrM") printed "chrMT:152 T>C (GRCh38);
// submitted as chrchrM:152 (GRCh37)".
describe('genomic positions in the report', () => {
  it('name each contig once, UCSC style (chrM for the mitochondrion), whatever the input called it', async () => {
    const mt = buildVariantRow({ chrom: 'MT', pos: 152, ref: 'T', alt: 'C', gene: null, hgvsC: null, hgvsP: null, transcript: null, input: { chrom: 'chrM', pos: 152, ref: 'T', alt: 'C', line: 30 } });
    const { pdf } = await renderReportPdf(buildReportModel({ variants: [mt, buildVariantRow({ id: 2 })] }));
    const text = textOf(pdf, 'contigs.pdf');
    expectTextOf(text, ['chrM:152 T>C (GRCh38); submitted as chrM:152 (GRCh37)', 'submitted as chr10:123256215 (GRCh37)']);
    expect(text).not.toMatch(/chrchr|chrMT/);
  });
});
