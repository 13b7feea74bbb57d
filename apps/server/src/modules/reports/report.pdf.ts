/**
 * The clinical report as a text-selectable PDF (pdfkit, A4). Layout: a header on every page
 * (RareLens, case ID, report date), "Page X of Y" footers, then patient and indication, the
 * results table, variant evidence, associated diseases, interpretation, test and method (with
 * the knowledge-base versions of the stored run), limitations, references and sign-off.
 * Rendering lives in the server (never in the engine).
 */
import PDFDocument from 'pdfkit';
import { DEJAVU_DIR, collectPdf, registerFonts, type Fonts } from '../../pdf/pdf.ts';
import { formatGeneScore, formatProbability, Messages, PROBABILITY_HELP } from '@rarelens/contract';
import { readStoredInput } from '../../db/run-variants.ts';
import {
  byReportOrder,
  clinvarLink,
  criteriaCodes,
  effectiveClass,
  expectedCodonOutcome,
  formatClinvar,
  formatReview,
  isCausalClass,
  reviewOf,
  reportOrderNote,
  formatConsequence,
  formatFrequency,
  fullHgvsC,
  matchedPhenotypes,
  shortHgvsC,
  shortHgvsP,
  ucscChrom,
  zygosityText,
  type ReportFamily,
  type ReportModel,
  type StoredCriterion,
} from './report.model.ts';

type Doc = PDFKit.PDFDocument;

/** A case without terms is ranked on its variants alone: the report says so instead of "none". */
export const NO_TERMS_REPORT = `${Messages.noHpoTerms} Disease and gene ranks do not reflect the patient.`;

const COLOR = {
  ink: '#1f2937',
  muted: '#6b7280',
  rule: '#d1d5db',
  accent: '#0f4c81',
  zebra: '#f3f6fa',
  headerFill: '#e8eef6',
};

const PAGE = { margin: 50, top: 78, bottom: 62 };

/** Under the genes table: the same numbers, read the same way, as on the genes screen and the gene page. */
const GENE_REPORT_NOTE =
  `As on the genes screen and the gene page. ${PROBABILITY_HELP.gene} ` +
  'Score (log10): the ranking score the genes are ordered by, the sum of the phenotype, genotype and constraint parts (listed on the gene page under “Why this rank”); each point more is ten times more evidence. It compares the genes of this case only and is not a probability.';

/** Limitations of the method; the population-frequency line depends on the deployment. */
export function limitationsOf(model: ReportModel): string[] {
  const kb = model.run?.kbVersions ?? {};
  const hasGenomeWideAf = Object.keys(kb).some((k) => /^gnomad-sites/i.test(k) || /^gnomad$/i.test(k));
  const list = [
    'The analysis is limited to the single-nucleotide variants and small insertions/deletions present in the submitted VCF file; the quality of the result depends on the sequencing and variant calling performed upstream.',
    'Structural variants, copy-number variants (deletions/duplications), balanced rearrangements and uniparental disomy are not detected or interpreted.',
    'Repeat expansions (e.g. FMR1, HTT, ataxia loci), variants in highly homologous regions and pseudogenes, and mitochondrial heteroplasmy are not reliably assessed.',
    'Low-level mosaicism and variants in regions not covered by the test (off-target, low coverage, deep intronic and regulatory regions) may be missed.',
    'Variant classification follows the ACMG/AMP 2015 criteria on the Bayesian points scale (Tavtigian 2018/2020) using automated evidence; criteria requiring segregation, de novo status or functional data are not assessed unless stated and classifications may change as evidence accumulates.',
    'Gene and disease ranking depends on the HPO terms provided; incomplete or inaccurate phenotypes reduce sensitivity.',
  ];
  if (!hasGenomeWideAf) {
    list.push(
      'No genome-wide population frequency database (gnomAD sites) is installed in this deployment: population frequencies are reported only where the submitted VCF carried them, otherwise as "not available".',
    );
  }
  if (model.run && model.run.inputAssembly !== model.run.assembly) {
    list.push(
      `The submitted file was on ${model.run.inputAssembly} and was lifted over to ${model.run.assembly}; variants that failed liftover (${model.run.counts.liftFailed ?? 0}) were not analysed.`,
    );
  }
  return list;
}

export const REFERENCES = [
  'Richards S, et al. Standards and guidelines for the interpretation of sequence variants: a joint consensus recommendation of the ACMG and AMP. Genet Med. 2015;17(5):405-424.',
  'Tavtigian SV, et al. Modeling the ACMG/AMP variant classification guidelines as a Bayesian classification framework. Genet Med. 2018;20(9):1054-1060.',
  'Tavtigian SV, et al. Fitting a naturally scaled point system to the ACMG/AMP variant classification guidelines. Hum Mutat. 2020;41(10):1734-1737.',
  'Gargano MA, et al. The Human Phenotype Ontology in 2024: phenotypes around the world. Nucleic Acids Res. 2024;52(D1):D1333-D1346.',
  'Landrum MJ, et al. ClinVar: improvements to accessing data. Nucleic Acids Res. 2020;48(D1):D835-D844.',
  'Morales J, et al. A joint NCBI and EMBL-EBI transcript set for clinical genomics and research (MANE). Nature. 2022;604:310-315.',
];

const KB_ROWS: [RegExp, string][] = [
  [/^(hpo|hpo-ontology)$/, 'HPO release'],
  [/^(hpoAnnotations|hpo-annotations)$/, 'HPO annotations'],
  [/^clinvar(-grch3[78])?$/, 'ClinVar'],
  [/^(transcripts(-grch3[78])?|mane-summary)$/, 'Transcript set'],
  [/^(hgnc|genes)$/, 'Gene set (HGNC)'],
];

/** "transcripts-grch38" -> "GRCh38"; "mane-summary" -> "MANE"; canonical keys -> "". */
function sourceTag(key: string): string {
  const build = /grch3[78]$/i.exec(key)?.[0];
  if (build) return build.replace(/^grch/i, 'GRCh');
  if (key === 'mane-summary') return 'MANE Select';
  return '';
}

/**
 * KB versions as [label, value] rows: HPO release, HPO annotations, ClinVar, transcript set
 * and gene set first (one row each, duplicate values merged), then the build and other sources.
 */
export function kbVersionRows(kb: Record<string, string>): [string, string][] {
  const rows: [string, string][] = [];
  // The ACMG setting recorded beside the versions has its own row (clinvarCriteriaText).
  const used = new Set<string>(['assembly', 'acmgClinvarCriteria']);
  for (const [re, label] of KB_ROWS) {
    const values: string[] = [];
    for (const [k, v] of Object.entries(kb)) {
      if (!re.test(k)) continue;
      used.add(k);
      const tag = sourceTag(k);
      const text = tag ? `${v} (${tag})` : v;
      if (!values.includes(text) && !values.includes(v)) values.push(text);
    }
    if (values.length) rows.push([label, values.join('; ')]);
  }
  if (kb.kbBuiltAt || kb.kbSoftware) {
    used.add('kbBuiltAt');
    used.add('kbSoftware');
    rows.push(['Knowledge base build', [kb.kbBuiltAt, kb.kbSoftware].filter(Boolean).join(', ')]);
  }
  const others = Object.entries(kb)
    .filter(([k]) => !used.has(k))
    .map(([k, v]) => `${k} ${v}`);
  if (others.length) rows.push(['Other sources', others.join('; ')]);
  return rows;
}

/** The run's ACMG setting for ClinVar-backed criteria (PP5/BP6), in words. */
export function clinvarCriteriaText(kb: Record<string, string>): string {
  const setting = kb.acmgClinvarCriteria;
  if (setting === 'on') return 'on: a ClinVar assertion with review criteria (1+ stars) counts as PP5/BP6 (Supporting), although ClinGen SVI retired both';
  if (setting === 'off') return 'off (default): ClinVar’s assertion is shown beside the ACMG class, not counted (PP5/BP6 retired by ClinGen SVI); PS1/PM5 use ClinVar’s pathogenic missense changes';
  return 'not recorded for this analysis (ClinVar’s assertion was not counted as a criterion)';
}

function formatDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function formatDateTime(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Long alleles shortened for display ("ACCCTCTGAG…(41 bp)"); the exports keep them whole. */
function allele(a: string): string {
  return a.length > 20 ? `${a.slice(0, 10)}…(${a.length} bp)` : a;
}


interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

class ReportWriter {
  readonly width: number;
  readonly left = PAGE.margin;

  constructor(
    readonly doc: Doc,
    readonly fonts: Fonts,
  ) {
    this.width = doc.page.width - PAGE.margin * 2;
  }

  private get bottom(): number {
    return this.doc.page.height - PAGE.bottom;
  }

  /** Starts a new page when fewer than `needed` points remain. */
  ensure(needed: number): void {
    if (this.doc.y + needed > this.bottom) this.doc.addPage();
  }

  /**
   * A section heading starts a new page unless the heading (~32 pt) and what must follow it (a
   * table's header and first row, a variant's first evidence lines: those ask for up to 70 pt)
   * fit: a heading never ends a page alone.
   */
  section(title: string): void {
    this.ensure(110);
    const { doc } = this;
    doc.moveDown(0.8);
    doc.font(this.fonts.bold).fontSize(11.5).fillColor(COLOR.accent).text(title.toUpperCase(), this.left, doc.y, { characterSpacing: 0.6 });
    const y = doc.y + 2;
    doc.moveTo(this.left, y).lineTo(this.left + this.width, y).lineWidth(0.8).strokeColor(COLOR.accent).stroke();
    doc.y = y + 6;
    doc.fillColor(COLOR.ink);
  }

  paragraph(text: string, opts: { size?: number; italic?: boolean; color?: string } = {}): void {
    const { doc } = this;
    doc.font(opts.italic ? this.fonts.italic : this.fonts.regular).fontSize(opts.size ?? 9.5).fillColor(opts.color ?? COLOR.ink);
    for (const para of text.split(/\n{2,}/)) {
      const h = doc.heightOfString(para, { width: this.width, lineGap: 2 });
      this.ensure(Math.min(h, 40));
      doc.text(para, this.left, doc.y, { width: this.width, lineGap: 2, align: 'left' });
      doc.moveDown(0.45);
    }
    doc.fillColor(COLOR.ink);
  }

  /** Label/value rows (label column 140 pt). */
  fields(rows: [string, string][]): void {
    const { doc } = this;
    const labelW = 140;
    const valueW = this.width - labelW;
    for (const [label, value] of rows) {
      doc.font(this.fonts.regular).fontSize(9);
      const h = Math.max(doc.heightOfString(value, { width: valueW, lineGap: 1.5 }), doc.heightOfString(label, { width: labelW - 8 }));
      this.ensure(h + 4);
      const y = doc.y;
      doc.font(this.fonts.bold).fillColor(COLOR.muted).text(label, this.left, y, { width: labelW - 8 });
      doc.font(this.fonts.regular).fillColor(COLOR.ink).text(value, this.left + labelW, y, { width: valueW, lineGap: 1.5 });
      doc.y = y + h + 4;
    }
  }

  bullets(items: string[], size = 8.8): void {
    const { doc } = this;
    for (const item of items) {
      doc.font(this.fonts.regular).fontSize(size);
      const h = doc.heightOfString(item, { width: this.width - 14, lineGap: 1.5 });
      this.ensure(h + 3);
      const y = doc.y;
      doc.fillColor(COLOR.accent).text('•', this.left + 2, y);
      doc.fillColor(COLOR.ink).text(item, this.left + 14, y, { width: this.width - 14, lineGap: 1.5 });
      doc.y = y + h + 3;
    }
  }

  /** The table of `rows`, or `empty` as a muted note when there are none; whether the table was written. */
  tableOrNote(columns: Column[], rows: string[][], empty: string): boolean {
    if (rows.length === 0) {
      this.paragraph(empty, { italic: true, color: COLOR.muted });
      return false;
    }
    this.table(columns, rows);
    return true;
  }

  /** A table whose header row repeats on each page it spans. */
  table(columns: Column[], rows: string[][], size = 7.8): void {
    const { doc } = this;
    const pad = 4;
    // A header wraps between words only: a word wider than its column ("Consequence" in a
    // narrow one) is set smaller rather than broken across lines.
    doc.font(this.fonts.bold);
    const headerSizes = columns.map((c) => {
      const longest = Math.max(...c.header.split(/\s+/).map((word) => doc.fontSize(size).widthOfString(word)));
      return longest > c.width - pad * 2 ? (size * (c.width - pad * 2)) / longest : size;
    });
    const drawHeader = () => {
      doc.font(this.fonts.bold);
      const h = Math.max(...columns.map((c, j) => doc.fontSize(headerSizes[j]!).heightOfString(c.header, { width: c.width - pad * 2 }))) + pad * 2;
      const y = doc.y;
      doc.rect(this.left, y, this.width, h).fill(COLOR.headerFill);
      let x = this.left;
      doc.fillColor(COLOR.accent);
      columns.forEach((c, j) => {
        doc.fontSize(headerSizes[j]!).text(c.header, x + pad, y + pad, { width: c.width - pad * 2, align: c.align ?? 'left' });
        x += c.width;
      });
      doc.y = y + h;
    };
    this.ensure(60);
    drawHeader();
    rows.forEach((row, i) => {
      doc.font(this.fonts.regular).fontSize(size);
      const h = Math.max(...row.map((cell, j) => doc.heightOfString(cell, { width: (columns[j]?.width ?? 50) - pad * 2, lineGap: 1 }))) + pad * 2;
      if (doc.y + h > this.bottom) {
        doc.addPage();
        drawHeader();
      }
      const y = doc.y;
      if (i % 2 === 1) doc.rect(this.left, y, this.width, h).fill(COLOR.zebra);
      doc.fillColor(COLOR.ink).font(this.fonts.regular).fontSize(size);
      let x = this.left;
      row.forEach((cell, j) => {
        const c = columns[j];
        if (!c) return;
        doc.font(j === 0 ? this.fonts.bold : this.fonts.regular).text(cell, x + pad, y + pad, {
          width: c.width - pad * 2,
          align: c.align ?? 'left',
          lineGap: 1,
        });
        x += c.width;
      });
      doc
        .moveTo(this.left, y + h)
        .lineTo(this.left + this.width, y + h)
        .lineWidth(0.4)
        .strokeColor(COLOR.rule)
        .stroke();
      doc.y = y + h;
    });
    doc.x = this.left;
    doc.moveDown(0.5);
  }
}

const INHERITANCE_LABEL: Record<string, string> = {
  de_novo: 'de novo',
  compound_het: 'compound heterozygous',
  hom_recessive: 'homozygous recessive',
  x_linked: 'X-linked',
  segregates: 'segregates with the phenotype',
};

/** Family members, each selected variant's genotypes in the family with the segregation evidence, and the trio QC. */
function writeFamilySection(w: ReportWriter, model: ReportModel, family: ReportFamily): void {
  w.section('Family and segregation');
  w.table(
    [
      { header: 'Sample', width: 90 },
      { header: 'Relation', width: 80 },
      { header: 'Sex', width: 60 },
      { header: 'Status', width: 70 },
      { header: 'Parents', width: 120 },
      { header: 'Sequenced', width: w.width - 420 },
    ],
    family.members.map((m) => [m.id, m.relation, m.sex, m.status, [m.father, m.mother].filter(Boolean).join(' × ') || '—', m.sequenced ? 'yes' : 'no']),
  );
  const sequenced = family.members.filter((m) => m.sequenced);
  if (model.variants.length) {
    w.table(
      [
        { header: 'Variant', width: 120 },
        ...sequenced.map((m) => ({ header: `${m.id} (${m.relation})`, width: Math.floor((w.width - 240) / Math.max(1, sequenced.length)) })),
        { header: 'Inheritance', width: 120 },
      ],
      model.variants.map((v) => {
        const f = family.variants[v.id];
        const cells = sequenced.map((m) => {
          const g = f?.genotypes?.[m.id];
          if (!g) return 'not called';
          return [g.gt, g.depth != null ? `DP ${g.depth}` : null, g.genotypeQuality != null ? `GQ ${g.genotypeQuality}` : null].filter(Boolean).join(' · ');
        });
        return [`${v.gene ?? 'intergenic'} ${shortHgvsC(v) ?? `${allele(v.ref)}>${allele(v.alt)}`}`, ...cells, f?.inheritance.map((t) => INHERITANCE_LABEL[t] ?? t).join(', ') || 'no pattern fits'];
      }),
    );
    const evidence = model.variants.flatMap((v) => (family.variants[v.id]?.rules ?? []).map((r) => `${v.gene ?? 'intergenic'}: ${r}`));
    if (evidence.length) w.bullets(evidence, 8.3);
  }
  w.fields(
    family.qc.map((q): [string, string] => [
      `Trio ${q.child}`,
      `Mendelian error rate ${((100 * q.qcErrors) / Math.max(1, q.qcSites)).toFixed(2)} % (${q.qcErrors} of ${q.qcSites} quality-passing sites; ${q.errors} of ${q.sites} before quality filters). ${q.warning ?? 'Parentage consistent with the pedigree.'}`,
    ]),
  );
  if (!family.qc.length) w.paragraph('No complete trio (proband and both parents sequenced): Mendelian consistency could not be checked.', { italic: true, size: 8.5, color: COLOR.muted });
  for (const n of family.notes) w.paragraph(n, { italic: true, size: 8.5, color: COLOR.muted });
}

/** Header and "Page X of Y" footer on every buffered page. */
function decoratePages(doc: Doc, fonts: Fonts, model: ReportModel): number {
  const range = doc.bufferedPageRange();
  const total = range.count;
  for (let i = range.start; i < range.start + total; i++) {
    doc.switchToPage(i);
    const { width, height } = doc.page;
    // Writing inside the margins must not trigger pdfkit's automatic page break.
    const savedBottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font(fonts.bold).fontSize(13).fillColor(COLOR.accent).text('RareLens', PAGE.margin, 30, { lineBreak: false });
    doc.font(fonts.regular).fontSize(8.5).fillColor(COLOR.muted).text('Clinical genome report', PAGE.margin + 70, 34.5, { lineBreak: false });
    const right = `Case ${model.product.caseId}   ·   Report date ${formatDate(model.generatedAt)}`;
    doc.font(fonts.regular).fontSize(8.5).fillColor(COLOR.ink).text(right, PAGE.margin, 34.5, { width: width - PAGE.margin * 2, align: 'right', lineBreak: false });
    doc.moveTo(PAGE.margin, 52).lineTo(width - PAGE.margin, 52).lineWidth(1).strokeColor(COLOR.accent).stroke();
    const fy = height - 42;
    doc.moveTo(PAGE.margin, fy - 6).lineTo(width - PAGE.margin, fy - 6).lineWidth(0.4).strokeColor(COLOR.rule).stroke();
    doc.font(fonts.regular).fontSize(7.5).fillColor(COLOR.muted);
    doc.text(`Report ${model.reportId} · For clinical use by qualified professionals · Confidential`, PAGE.margin, fy, { lineBreak: false });
    doc.text(`Page ${i - range.start + 1} of ${total}`, PAGE.margin, fy, { width: width - PAGE.margin * 2, align: 'right', lineBreak: false });
    doc.page.margins.bottom = savedBottom;
  }
  return total;
}

export interface RenderedReport {
  pdf: Buffer;
  pageCount: number;
}

/** Renders the report; `fontDir` overrides where DejaVu is looked for (tests). */
export async function renderReportPdf(model: ReportModel, opts: { fontDir?: string } = {}): Promise<RenderedReport> {
  const doc = new PDFDocument({
    size: 'A4',
    bufferPages: true,
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.margin, right: PAGE.margin },
    info: {
      Title: `RareLens clinical genome report — ${model.product.caseId}`,
      Author: model.analyst || 'RareLens',
      Subject: 'Rare disease genome interpretation report',
      Creator: model.run?.softwareVersion ?? 'RareLens',
      CreationDate: model.generatedAt,
    },
    lang: 'en-GB',
    displayTitle: true,
  });
  const finished = collectPdf(doc);

  const fonts = registerFonts(doc, opts.fontDir ?? DEJAVU_DIR);
  const w = new ReportWriter(doc, fonts);
  const { product, run } = model;

  // Title block
  doc.font(fonts.bold).fontSize(17).fillColor(COLOR.ink).text('Genome analysis report — rare disease', w.left, PAGE.top);
  doc.font(fonts.regular).fontSize(9).fillColor(COLOR.muted).text(`Generated ${formatDateTime(model.generatedAt)}`);
  doc.moveDown(0.3);

  // The patient's onset (the one the ranking scores) is listed apart from the features; other onset
  // terms given are named as not used.
  const features = product.hpoTerms.filter((t) => !t.onset);
  const unused = product.hpoTerms.filter((t) => t.onset && t.id !== product.onset?.id);
  const onsetText = product.onset
    ? `${product.onset.label} (${product.onset.id})` + (unused.length ? `; also given, not used (the earliest onset is used): ${unused.map((t) => `${t.label} (${t.id})`).join('; ')}` : '')
    : null;
  w.section('Patient and referral');
  w.fields([
    ['Case ID', product.caseId],
    ['Sex', product.gender === 'male' ? 'Male' : 'Female'],
    ['Indication', product.symptoms.trim() || 'not provided'],
    [
      'Phenotype (HPO)',
      features.length
        ? features.map((t) => `${t.label} (${t.id})`).join('; ') +
          (product.hpoTermsSource === 'phenome' ? `. ${Messages.hpoTermsFromPhenome}` : '')
        : NO_TERMS_REPORT,
    ],
    ...(onsetText ? ([['Age of onset', onsetText]] as [string, string][]) : []),
    ...(product.excludedTerms.length
      ? ([['Excluded features', product.excludedTerms.map((t) => `${t.label} (${t.id})`).join('; ')]] as [string, string][])
      : []),
  ]);

  w.section('Result summary');
  // One order for the whole report: the interpretation's (draftInterpretation), so the tables and
  // the text lead with the same finding.
  const phenotyped = product.hpoTerms.length > 0;
  const ordered = [...model.variants].sort(byReportOrder(model.diseases, model.reviews, phenotyped));
  const causal = ordered.filter((v) => isCausalClass(effectiveClass(v, model.reviews)));
  const classText = (v: (typeof ordered)[number]): string => {
    const r = reviewOf(model.reviews, v);
    return r ? `reviewer: ${r.classification}; automatic ACMG: ${v.acmgClass}` : v.acmgClass;
  };
  const clinvarPathogenic = ordered.filter((v) => !isCausalClass(effectiveClass(v, model.reviews)) && /pathogenic/i.test(v.clinvarSignificance ?? '') && !/conflicting/i.test(v.clinvarSignificance ?? '') && (v.clinvar as { match?: string } | null)?.match === 'exact');
  const summary =
    model.variants.length === 0
      ? 'No variant was selected for this report.'
      : `${model.variants.length} variant${model.variants.length === 1 ? '' : 's'} selected for reporting` +
        (causal.length
          ? `, including ${causal.length} classified as pathogenic or likely pathogenic: ${causal
              .map((v) => `${v.gene ?? 'intergenic'} ${shortHgvsC(v) ?? `${v.ref}>${v.alt}`} (${classText(v)})`)
              .join('; ')}.`
          : '; none is classified as pathogenic or likely pathogenic by the automated ACMG/AMP criteria or a reviewer.') +
        (clinvarPathogenic.length
          ? ` ClinVar reports ${clinvarPathogenic.length === 1 ? 'one of them' : `${clinvarPathogenic.length} of them`} as pathogenic or likely pathogenic: ${clinvarPathogenic
              .map((v) => `${v.gene ?? 'intergenic'} ${shortHgvsC(v) ?? `${v.ref}>${v.alt}`} (ClinVar ${formatClinvar(v)}; ACMG ${v.acmgClass})`)
              .join('; ')}.`
          : '');
  w.paragraph(summary, { size: 10 });

  w.section('Variants');
  if (
    w.tableOrNote(
      [
        { header: 'Gene', width: 46 },
        { header: 'Transcript / HGVS', width: 116 },
        { header: 'Zygosity', width: 64 },
        { header: 'Consequence', width: 66 },
        { header: 'Population AF', width: 58 },
        { header: 'ClinVar', width: 66 },
        { header: 'ACMG class (criteria)', width: w.width - 416 },
      ],
      ordered.map((v) => [
        v.gene ?? '—',
        [v.transcript ?? '', shortHgvsC(v) ?? `${ucscChrom(v.chrom)}:${v.pos} ${allele(v.ref)}>${allele(v.alt)}`, shortHgvsP(v) ?? ''].filter(Boolean).join('\n'),
        zygosityText(v),
        formatConsequence(v.consequence),
        formatFrequency(v.af, v.afSource),
        formatClinvar(v),
        `${v.acmgClass}\n${criteriaCodes(v.acmgCriteria).join(', ') || 'no criteria met'}` +
          (reviewOf(model.reviews, v) ? `\nReviewer: ${reviewOf(model.reviews, v)!.classification}` : ''),
      ]),
      'No variants were selected in the reporting list.',
    )
  ) {
    w.paragraph(reportOrderNote(phenotyped), { italic: true, size: 8.5, color: COLOR.muted });
    if (model.missing.length) {
      w.paragraph(
        `Not in the current analysis (selected before a re-analysis): ${model.missing.map((m) => `${m.gene ?? ''} ${ucscChrom(m.chrom)}:${m.pos} ${m.ref}>${m.alt}`.trim()).join('; ')}.`,
        { italic: true, size: 8.5, color: COLOR.muted },
      );
    }

    w.section('Variant evidence');
    for (const v of ordered) {
      const input = readStoredInput(v) as { chrom?: string; pos?: number; ref?: string; alt?: string } | null;
      const genotype = v.genotype as { gt?: string; depth?: number | null; genotypeQuality?: number | null } | null;
      w.ensure(70);
      doc.font(fonts.bold).fontSize(9.5).fillColor(COLOR.ink).text(`${v.gene ?? 'Intergenic'}  ${fullHgvsC(v) ?? ''}  ${v.hgvsP ?? ''}`.trim(), w.left, doc.y, { width: w.width });
      doc.moveDown(0.2);
      const lines: [string, string][] = [
        [
          'Genomic position',
          `${ucscChrom(v.chrom)}:${v.pos} ${allele(v.ref)}>${allele(v.alt)} (${run?.assembly ?? 'GRCh38'})` +
            (input && run && run.inputAssembly !== run.assembly ? `; submitted as ${ucscChrom(input.chrom ?? '')}:${input.pos} (${run.inputAssembly})` : ''),
        ],
        [
          'Genotype',
          `${zygosityText(v)}${genotype?.gt ? ` (${genotype.gt})` : ''}${genotype?.depth != null ? `, depth ${genotype.depth}` : ''}${genotype?.genotypeQuality != null ? `, GQ ${genotype.genotypeQuality}` : ''}${v.qual != null ? `, QUAL ${v.qual}` : ''}`,
        ],
        ['ACMG/AMP', `${v.acmgClass} (${v.acmgPoints} points, automated)`],
        ['ClinVar', `${formatClinvar(v)}${clinvarLink(v) ? ` — ${clinvarLink(v)}` : ''}`],
      ];
      const outcome = expectedCodonOutcome(v);
      if (outcome) lines.splice(2, 0, ['Expected codon outcome', outcome]);
      const review = reviewOf(model.reviews, v);
      if (review) lines.push(['Reviewer classification', formatReview(review, v.acmgClass)]);
      w.fields(lines);
      const criteria = (Array.isArray(v.acmgCriteria) ? (v.acmgCriteria as StoredCriterion[]) : []).map(
        (c, i) => `${criteriaCodes([c])[0] ?? c.code ?? String(i)}: ${c.reason}`,
      );
      if (criteria.length) w.bullets(criteria, 8.3);
      doc.moveDown(0.4);
    }
  }

  if (model.family) writeFamilySection(w, { ...model, variants: ordered }, model.family);

  if (model.genes) {
    w.section('Genes in the ranking');
    if (
      w.tableOrNote(
        [
          { header: 'Gene', width: 70 },
          { header: 'Rank', width: 50 },
          { header: 'Post-test probability', width: 110 },
          { header: 'Score (log10)', width: 80 },
          { header: 'Selected variants', width: w.width - 310 },
        ],
        model.genes.map((g) => [
          g.symbol,
          String(g.rank),
          g.probability === null ? 'not computed (ranked before it existed)' : formatProbability(g.probability),
          formatGeneScore(g.score),
          String(model.variants.filter((v) => v.gene === g.symbol).length),
        ]),
        'None of the selected variants is in a ranked gene.',
      )
    ) {
      w.paragraph(GENE_REPORT_NOTE, { italic: true, size: 8.5, color: COLOR.muted });
    }
  }

  w.section('Associated diseases');
  w.tableOrNote(
    [
      { header: 'Disease', width: 160 },
      { header: 'Gene(s)', width: 60 },
      { header: 'Inheritance', width: 90 },
      { header: 'Matched patient phenotypes', width: w.width - 310 },
    ],
    model.diseases.map((d) => [
      `${d.name}\n${d.diseaseId}`,
      d.genes.join(', '),
      d.inheritance.map((i) => i.label).join(', ') || 'not stated',
      matchedPhenotypes(d)
        .map((t) => t.label)
        .join(', ') || 'none',
    ]),
    'No ranked disease involves the selected genes.',
  );

  w.section('Interpretation');
  w.paragraph(model.interpretation.trim() || 'No interpretation was entered.', { size: 9.8 });

  w.section('Test and method');
  const genomeFile = product.genomeFileName ? `${product.genomeFileName} (${product.genomeFormat.toUpperCase()})` : product.genomeFormat.toUpperCase();
  const raw = model.rawData ?? null;
  w.fields([
    [
      'Test',
      raw
        ? 'Raw data analysis (FASTQ reads aligned and variants called), then genome/exome variant interpretation, phenotype-driven prioritisation'
        : 'Genome/exome variant interpretation from a VCF file, phenotype-driven prioritisation',
    ],
    ['Input file', genomeFile],
    ...(raw
      ? ([
          ['Raw data analysis', `Reads aligned to ${raw.reference}${raw.demoReference ? ' (DEMO reference: not a genome; results cover only its contigs)' : ''}; ${raw.layout === 'single' ? 'single-end' : raw.layout} reads`],
          ['Tools', Object.values(raw.tools).join(', ')],
          [
            'Read QC',
            `${raw.qc.reads.toLocaleString('en-GB')} reads, ${(raw.qc.mappedRate * 100).toFixed(1)} % mapped, ${(raw.qc.duplicateRate * 100).toFixed(1)} % duplicates, mean depth ${raw.qc.meanDepth.toFixed(1)}x over covered bases` +
              (raw.qc.tiTv === null ? '' : `, Ti/Tv ${raw.qc.tiTv.toFixed(2)}`),
          ],
        ] as [string, string][])
      : []),
    [
      'Genome assembly',
      run ? (run.inputAssembly === run.assembly ? run.assembly : `${run.inputAssembly} (submitted), lifted over to ${run.assembly}`) : 'not analysed',
    ],
    ['Software', run?.softwareVersion ?? 'not analysed'],
    ['Analysis date', run?.completedAt ? formatDateTime(run.completedAt) : 'not completed'],
    ...(run?.rankedAt && run.completedAt && run.rankedAt.getTime() - run.completedAt.getTime() > 1000
      ? ([['Last re-ranking', formatDateTime(run.rankedAt)]] as [string, string][])
      : []),
    ...(run ? kbVersionRows(run.kbVersions) : []),
    ...(run ? ([['ClinVar-backed ACMG criteria', clinvarCriteriaText(run.kbVersions)]] as [string, string][]) : []),
    [
      'Method',
      'Variants are annotated against the MANE/RefSeq transcript set (consequence, HGVS), ClinVar and population data, classified with the ACMG/AMP criteria on the points scale, and ranked by combining variant evidence with the HPO similarity between the patient’s phenotype and annotated diseases.',
    ],
  ]);
  if (run) {
    const counts = run.counts;
    const parts = [
      counts.records != null ? `${counts.records.toLocaleString('en-GB')} records read` : null,
      counts.variantsStored != null ? `${counts.variantsStored.toLocaleString('en-GB')} variants annotated` : null,
      counts.candidates != null ? `${counts.candidates.toLocaleString('en-GB')} candidates ranked` : null,
    ].filter(Boolean);
    if (parts.length) w.paragraph(`Run statistics: ${parts.join(', ')}.`, { size: 8.5, color: COLOR.muted });
  }
  if (raw) {
    w.paragraph('Raw data analysis command lines:', { size: 8.5, color: COLOR.muted });
    w.bullets(raw.commands, 7.5);
  }

  w.section('Limitations');
  w.bullets(limitationsOf(model));

  w.section('References');
  w.bullets(REFERENCES.map((r, i) => `[${i + 1}] ${r}`), 8);

  // Keep the heading with its signature lines.
  w.ensure(190);
  w.section('Sign-off');
  const sign = (role: string, name: string, y: number) => {
    doc.font(fonts.bold).fontSize(9).fillColor(COLOR.muted).text(role, w.left, y);
    doc.font(fonts.regular).fontSize(9).fillColor(COLOR.ink).text(name, w.left + 160, y);
    doc.moveTo(w.left + 160, y + 24).lineTo(w.left + 330, y + 24).lineWidth(0.6).strokeColor(COLOR.ink).stroke();
    doc.font(fonts.regular).fontSize(7.5).fillColor(COLOR.muted).text('Signature', w.left + 160, y + 27);
    doc.moveTo(w.left + 360, y + 24).lineTo(w.left + w.width, y + 24).stroke();
    doc.text('Date', w.left + 360, y + 27);
  };
  const y0 = doc.y + 4;
  sign('Analyst', model.analyst || '', y0);
  sign('Reviewing clinical scientist', '', y0 + 48);
  doc.y = y0 + 96;
  doc.x = w.left;
  w.paragraph(
    'This report was prepared with RareLens decision-support software. Results must be interpreted by a qualified clinical geneticist or clinical scientist in the context of the clinical findings and family history.',
    { size: 8, italic: true, color: COLOR.muted },
  );

  const pageCount = decoratePages(doc, fonts, model);
  doc.end();
  return { pdf: await finished, pageCount };
}
