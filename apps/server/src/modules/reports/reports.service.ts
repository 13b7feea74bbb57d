/**
 * Reporting list, clinical reports and exports of a case. Access is the cases policy: anyone
 * who can read the case (owner, or a user it is shared with) reads and curates its reporting
 * list and generates reports — the list is the team's shared working set; everyone else gets
 * 404.
 */
import type { ActivityRecorder } from '../activity/activity.service.ts';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { isOnsetTerm, patientOnset } from '@rarelens/engine';
import {
  ErrorCode,
  Messages,
  type AddReportItemResponse,
  type CreateReportBody,
  type Phenopacket,
  type PhenopacketFamily,
  type ReportItemListResponse,
  type ReportListResponse,
  type VariantListQuery,
} from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import type { AnalysisRunRow, RunVariantRow } from '../../db/schema/products.ts';
import type { ReportRow } from '../../db/schema/reports.ts';
import { AppError } from '../../errors.ts';
import type { ObjectStorage } from '../../storage/object-storage.ts';
import type { KnowledgeBase } from '../../kb/knowledge-base.ts';
import type { CaseAccess } from '../cases/cases.service.ts';
import { variantFilters, type VariantsService } from '../variants/variants.service.ts';
import { buildPhenopacket } from './phenopacket.ts';
import { buildFamilyPhenopacket } from './phenopacket-family.ts';
import { draftInterpretation, type ReportFamily, type ReportModel, type ReportRawData, type TermLabel } from './report.model.ts';
import { renderReportPdf } from './report.pdf.ts';
import { presentReport, presentReportItem } from './reports.presenter.ts';
import * as repo from './reports.repository.ts';
import { tsvHeader, tsvRow } from './variants.tsv.ts';

export interface ReportsServiceDeps {
  database: Database;
  storage: ObjectStorage;
  access: CaseAccess;
  variants: Pick<VariantsService, 'stored' | 'reviews'>;
  kb: Pick<KnowledgeBase, 'hpo'>;
  /** Where the report font (DejaVu) is looked for. */
  fontDir?: string;
  /** The account activity log: every report download is recorded for the user who made it. */
  activity?: ActivityRecorder;
  /** The raw data analysis of a run (FASTQ cases), for the method section. */
  rawData?: (runId: string) => Promise<ReportRawData | null>;
}

export interface Caller {
  id: string;
  email: string;
  name?: string;
  surname?: string;
}

/** "Ada Lovelace <ada@example.org>" for the analyst line of the sign-off. */
function analystOf(user: Caller): string {
  const name = [user.name, user.surname].filter(Boolean).join(' ').trim();
  return name ? `${name} <${user.email}>` : user.email;
}

/** Diseases listed in a report (those of the selected genes, best ranked first). */
const REPORT_DISEASES = 10;
/** Rows read per query while streaming the TSV export. */
const TSV_BATCH = 2000;

type StoredRunFamily = NonNullable<AnalysisRunRow['family']>;

/** The family section of a report: members, trio QC, notes and each selected variant's genotypes and inheritance. */
function reportFamily(stored: StoredRunFamily, variants: readonly RunVariantRow[]): ReportFamily {
  const { family, qc } = stored;
  return {
    proband: family.proband,
    members: family.members.map((m) => ({ id: m.id, relation: m.relation, sex: m.sex, status: m.status, father: m.father, mother: m.mother, sequenced: m.vcfIndex >= 0 })),
    qc: qc.map((q) => ({ child: q.child, father: q.father, mother: q.mother, sites: q.sites, errors: q.errors, qcSites: q.qcSites, qcErrors: q.qcErrors, qcRate: q.qcRate, warning: q.warning })),
    notes: [...family.notes],
    variants: Object.fromEntries(
      variants.map((v) => [
        v.id,
        {
          genotypes: v.genotypes
            ? Object.fromEntries(
                Object.entries(v.genotypes).map(([s, g]) => [s, { gt: g.gt, ...(g.depth !== undefined ? { depth: g.depth } : {}), ...(g.genotypeQuality !== undefined ? { genotypeQuality: g.genotypeQuality } : {}) }]),
              )
            : null,
          inheritance: [...v.inheritance],
          rules: [...(v.inheritanceDetail?.rules ?? [])],
        },
      ]),
    ),
  };
}

function safeFilePart(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60) || 'case';
}

export function createReportsService(deps: ReportsServiceDeps) {
  const { database, storage } = deps;
  const db = database.db;

  /** The case if `user` may read it (cases policy), else 404. */
  async function readable(user: Caller, id: string) {
    return (await deps.access.check(user, id, 'read')).caseRow;
  }

  /** The case if `user` may change it (its owner): a shared user reads the list and reports only. */
  async function editable(user: Caller, id: string) {
    return (await deps.access.check(user, id, 'edit')).caseRow;
  }

  /**
   * The case's terms with their labels (an age-of-onset term is marked as an onset), and the
   * patient's onset of a term list (engine patientOnset: the onset the ranking scores).
   */
  async function termLabeler(): Promise<{ term: (id: string) => TermLabel; onsetOf: (ids: readonly string[]) => TermLabel | null }> {
    const hpo = await deps.kb.hpo().catch(() => null);
    const ontology = hpo?.ontology;
    const term = (id: string): TermLabel => {
      const label = ontology?.label(id) ?? id;
      return ontology && isOnsetTerm(ontology, id) ? { id, label, onset: true } : { id, label };
    };
    const onsetOf = (ids: readonly string[]): TermLabel | null => {
      const id = ontology ? patientOnset(ontology, ids).onset?.term : undefined;
      return id ? term(id) : null;
    };
    return { term, onsetOf };
  }

  /** Everything a report or a phenopacket is built from. */
  async function buildModel(
    product: Awaited<ReturnType<typeof readable>>,
    opts: { interpretation?: string | undefined; analyst: string; reportId: string },
  ): Promise<ReportModel> {
    const runId = product.currentRunId;
    const [items, run, files, { term, onsetOf }, reviews, rawData] = await Promise.all([
      repo.listItems(db, product.id, runId),
      runId ? deps.access.run(runId) : Promise.resolve(null),
      deps.access.files(product.id),
      termLabeler(),
      deps.variants.reviews(product.id),
      runId && deps.rawData ? deps.rawData(runId) : Promise.resolve(null),
    ]);
    const variants = items.flatMap((i) => (i.variant ? [i.variant] : []));
    const genes = [...new Set(variants.flatMap((v) => (v.gene ? [v.gene] : [])))];
    const [diseases, ranked] = runId ? await Promise.all([repo.diseasesForGenes(db, runId, genes, REPORT_DISEASES), repo.rankedGenes(db, runId, genes)]) : [[], []];
    const genome = files.find((f) => f.role === 'genome');
    return {
      product: {
        id: product.id,
        caseId: product.caseId,
        gender: product.gender,
        symptoms: product.symptoms,
        hpoTerms: product.hpoTerms.map(term),
        excludedTerms: product.excludedTerms.map(term),
        onset: onsetOf(product.hpoTerms),
        hpoTermsSource: product.hpoTermsSource,
        genomeFileName: genome?.originalName ?? null,
        genomeFormat: product.genomeFormat,
      },
      run: run
        ? {
            id: run.id,
            softwareVersion: run.softwareVersion,
            kbVersions: run.kbVersions,
            assembly: run.assembly,
            inputAssembly: run.inputAssembly,
            completedAt: run.completedAt,
            rankedAt: run.rankedAt,
            counts: run.counts,
          }
        : null,
      rawData,
      variants,
      missing: items.filter((i) => !i.variant).map((i) => ({ chrom: i.item.chrom, pos: i.item.pos, ref: i.item.ref, alt: i.item.alt, gene: i.item.gene })),
      diseases,
      genes: ranked,
      interpretation: opts.interpretation ?? draftInterpretation(variants, diseases, undefined, reviews, product.hpoTerms.length > 0),
      reviews,
      analyst: opts.analyst,
      generatedAt: new Date(),
      reportId: opts.reportId,
      family: run?.family ? reportFamily(run.family, variants) : null,
    };
  }

  async function reportFile(user: Caller, id: string, reportId: string): Promise<{ report: ReportRow; stream: Readable }> {
    const product = await readable(user, id);
    const report = await repo.findReport(db, product.id, reportId);
    if (!report) throw new AppError(404, ErrorCode.notFound, 'Report not found in this case');
    const stream = await storage.get(report.storageKey);
    await deps.activity?.record(user.id, 'report_downloaded', { caseId: product.caseId, report: report.fileName });
    return { report, stream };
  }

  return {
    /** The reporting list, with a first draft of the interpretation for the Reporting page. */
    async listItems(user: Caller, id: string): Promise<ReportItemListResponse & { draftInterpretation: string }> {
      const product = await readable(user, id);
      const [items, reviews] = await Promise.all([repo.listItems(db, product.id, product.currentRunId), deps.variants.reviews(product.id)]);
      const variants = items.flatMap((i) => (i.variant ? [i.variant] : []));
      const genes = [...new Set(variants.flatMap((v) => (v.gene ? [v.gene] : [])))];
      const diseases = product.currentRunId ? await repo.diseasesForGenes(db, product.currentRunId, genes, REPORT_DISEASES) : [];
      return { items: items.map((i) => presentReportItem(i, reviews)), draftInterpretation: draftInterpretation(variants, diseases, undefined, reviews, product.hpoTerms.length > 0) };
    },

    /** Adds a variant of the current analysis; 409 when its allele is already listed. */
    async addItem(user: Caller, id: string, variantId: number): Promise<AddReportItemResponse> {
      const product = await editable(user, id);
      const runId = product.currentRunId;
      const variant: RunVariantRow | null = runId ? await deps.variants.stored(runId, variantId) : null;
      if (!variant) throw new AppError(404, ErrorCode.notFound, 'Variant not found in this case');
      const row = await repo.insertItem(db, {
        productId: product.id,
        variantId: variant.id,
        chrom: variant.chrom,
        pos: variant.pos,
        ref: variant.ref,
        alt: variant.alt,
        gene: variant.gene,
        addedBy: user.id,
      });
      if (!row) throw new AppError(409, ErrorCode.variantAlreadyInReport, Messages.variantAlreadyInList);
      return { item: presentReportItem({ item: row, addedByEmail: user.email, variant }), message: Messages.itemAdded };
    },

    async removeItem(user: Caller, id: string, itemId: string): Promise<{ message: string }> {
      const product = await editable(user, id);
      if (!(await repo.deleteItem(db, product.id, itemId))) {
        throw new AppError(404, ErrorCode.notFound, 'This variant is not in the reporting list');
      }
      return { message: Messages.itemRemoved };
    },

    async clearItems(user: Caller, id: string): Promise<{ message: string }> {
      const product = await editable(user, id);
      await repo.clearItems(db, product.id);
      return { message: Messages.reportingListCleared };
    },

    /** Renders the report from the reporting list, stores it and answers the PDF. */
    async createReport(user: Caller, id: string, body: CreateReportBody): Promise<{ report: ReportRow; pdf: Buffer }> {
      const product = await editable(user, id);
      if (product.status !== 'Completed' || !product.currentRunId) {
        throw new AppError(409, ErrorCode.badRequest, 'The case has no completed analysis to report on yet');
      }
      const reportId = randomUUID();
      const model = await buildModel(product, {
        interpretation: body.interpretation,
        analyst: body.analyst || analystOf(user),
        reportId,
      });
      const { pdf, pageCount } = await renderReportPdf(model, deps.fontDir ? { fontDir: deps.fontDir } : {});
      const stamp = model.generatedAt.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
      const fileName = `RareLens-report-${safeFilePart(product.caseId)}-${stamp}.pdf`;
      const storageKey = `products/${product.id}/reports/${reportId}.pdf`;
      const put = await storage.put(storageKey, Readable.from([pdf]));
      try {
        const report = await repo.insertReport(db, {
          id: reportId,
          productId: product.id,
          runId: product.currentRunId,
          createdBy: user.id,
          fileName,
          storageKey,
          sizeBytes: put.bytes,
          sha256: put.sha256,
          pageCount,
          variantCount: model.variants.length,
          interpretation: model.interpretation,
          createdAt: model.generatedAt,
        });
        await deps.activity?.record(user.id, 'report_downloaded', { caseId: product.caseId, report: fileName });
        return { report, pdf };
      } catch (e) {
        await storage.delete(storageKey).catch(() => undefined);
        throw e;
      }
    },

    async listReports(user: Caller, id: string): Promise<ReportListResponse> {
      const product = await readable(user, id);
      const rows = await repo.listReports(db, product.id);
      return { items: rows.map((r) => presentReport(r.report, r.createdByEmail)) };
    },

    reportFile,

    /** The case as a Phenopacket; a family case as a Family message (proband, relatives, pedigree, the joint VCF). */
    async phenopacket(user: Caller, id: string): Promise<{ name: string; packet: Phenopacket | PhenopacketFamily }> {
      const product = await readable(user, id);
      const model = await buildModel(product, { analyst: user.email, reportId: randomUUID(), interpretation: '' });
      const packet = buildPhenopacket(model, 'RareLens');
      const run = product.currentRunId ? await deps.access.run(product.currentRunId) : null;
      if (!run?.family) return { name: packet.subject.id, packet };
      return { name: `${packet.subject.id}-family`, packet: buildFamilyPhenopacket(packet, run.family.family) };
    },

    /** The filtered variant list as TSV chunks (keyset-paged, so a genome streams in constant memory). */
    async variantsTsv(user: Caller, id: string, q: VariantListQuery): Promise<{ caseId: string; chunks: AsyncIterable<string> }> {
      const product = await readable(user, id);
      const runId = product.currentRunId;
      const run = runId ? await deps.access.run(runId) : null;
      const filters = variantFilters(q);
      async function* chunks(): AsyncGenerator<string> {
        yield tsvHeader();
        if (!runId) return;
        let cursor: repo.VariantCursor = null;
        for (;;) {
          const rows = await repo.variantsAfter(db, runId, filters, cursor, TSV_BATCH);
          const last = rows[rows.length - 1];
          if (!last) return;
          yield rows.map((r) => tsvRow(r, run?.assembly ?? 'GRCh38')).join('');
          cursor = repo.cursorAfter(last);
          if (rows.length < TSV_BATCH) return;
        }
      }
      return { caseId: product.caseId, chunks: chunks() };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
