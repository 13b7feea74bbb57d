/**
 * Cases: upload (stream to storage, check content, queue the analysis in the same
 * transaction as the case row), listing, results, phenotype-term edits (re-rank) and sharing.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  Constants,
  CreateProductFields,
  ErrorCode,
  Messages,
  type GeneDetails,
  type PhenotypeDetails,
  type ProductDetails,
  type ProductSummary,
  type UpdatePhenotypeTermsBody,
  type VariantDetails,
  type VariantListQuery,
  type VariantListResponse,
} from '@rarelens/contract';
import type { Ontology } from '@rarelens/engine';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { AnalyseCasePayload } from '../../jobs/analyse-case.job.ts';
import type { RerankCasePayload } from '../../jobs/rerank-case.job.ts';
import {
  ContentRejectedError,
  sniffAttachment,
  sniffGenome,
  type AttachmentContent,
  type GenomeContent,
} from '../../storage/content-type.ts';
import { ObjectTooLargeError, type ObjectStorage } from '../../storage/object-storage.ts';
import { assertCan, productNotFound, type ProductAccess, type ProductAction } from './products.policy.ts';
import {
  presentGene,
  presentGeneDetails,
  presentPhenotype,
  presentPhenotypeDetails,
  presentProductDetails,
  presentProductSummary,
  presentVariant,
  presentVariantDetails,
} from './products.presenter.ts';
import * as repo from './products.repository.ts';
import type { ProductFileRow, ProductRow } from '../../db/schema/products.ts';
import * as results from './results.repository.ts';

/** A multipart part as the route hands it over (file stream or text field). */
export type UploadPart =
  | { type: 'file'; fieldname: string; filename: string; file: Readable }
  | { type: 'field'; fieldname: string; value: unknown };

/** 400 with per-field issues (same body shape as schema validation failures). */
export class UploadValidationError extends Error {
  constructor(readonly issues: { path: (string | number)[]; message: string }[]) {
    super(issues[0]?.message ?? Messages.validationFailed);
    this.name = 'UploadValidationError';
  }
}

export interface JobQueuePort {
  enqueueAnalysis(tx: Database['db'], payload: AnalyseCasePayload): Promise<void>;
  enqueueRerank(tx: Database['db'], payload: RerankCasePayload): Promise<void>;
  /** Called after the enqueuing transaction committed (wakes an in-process worker). */
  notify(): void;
}

export interface ProductsServiceDeps {
  database: Database;
  storage: ObjectStorage;
  jobs: JobQueuePort;
  uploadMaxBytes: number;
  /** The HPO ontology of the knowledge base, or null when no KB is built. */
  ontology: () => Promise<Ontology | null>;
  /**
   * PhenomeAI with the shipped configuration: the terms of a case submitted with symptoms but
   * without any HPO term (e.g. before the suggestions arrived). Absent = no extraction.
   */
  extractTerms?: (symptoms: string) => Promise<{ hpoTerms: string[]; excludedTerms: string[] }>;
}

export interface Caller {
  id: string;
  email: string;
}

const GENOME_FIELD = 'genomeFile';
const ATTACHMENT_FIELD = 'additionalFiles';
const TERM_FIELDS = new Set(['hpoTerms', 'excludedTerms']);

/** hpoTerms arrive as a JSON array, comma-separated ids, or repeated fields. */
function parseTermValues(values: string[]): unknown {
  const out: unknown[] = [];
  for (const v of values) {
    const t = v.trim();
    if (t === '') continue;
    if (t.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(t);
        if (Array.isArray(parsed)) out.push(...(parsed as unknown[]));
        else out.push(parsed);
      } catch {
        out.push(t);
      }
    } else out.push(...t.split(',').map((s) => s.trim()).filter((s) => s !== ''));
  }
  return out;
}

interface StoredUpload {
  id: string;
  role: 'genome' | 'attachment';
  originalName: string;
  storageKey: string;
  sizeBytes: number;
  sha256: string;
  content: GenomeContent | AttachmentContent;
}

function safeName(name: string): string {
  // Drop any directory part and control characters (C0 and DEL).
  const base = [...name.replace(/^.*[\\/]/, '')].filter((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127).join('').trim();
  return (base || 'file').slice(0, 255);
}

export function createProductsService(deps: ProductsServiceDeps) {
  const { database, storage } = deps;
  const db = database.db;

  async function access(user: Caller, id: string, action: ProductAction) {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw productNotFound();
    const found = await repo.findAccessibleProduct(db, id, user);
    const level: ProductAccess | null = found ? (found.isOwner ? 'owner' : 'shared') : null;
    assertCan(level, action);
    return found!;
  }

  async function labeler(): Promise<(id: string) => string> {
    const ontology = await deps.ontology().catch(() => null);
    return (id) => ontology?.label(id) ?? id;
  }

  async function storeUpload(productId: string, part: Extract<UploadPart, { type: 'file' }>, role: 'genome' | 'attachment'): Promise<StoredUpload> {
    const id = randomUUID();
    const name = safeName(part.filename);
    const storageKey = `products/${productId}/${id}`;
    let content: GenomeContent | AttachmentContent | null = null;
    try {
      const put = await storage.put(storageKey, part.file, {
        maxBytes: deps.uploadMaxBytes,
        inspect: (sample) => {
          content = role === 'genome' ? sniffGenome(sample, name) : sniffAttachment(sample, name);
        },
      });
      if (!content) throw new ContentRejectedError(name, 'the file is empty');
      return { id, role, originalName: name, storageKey, sizeBytes: put.bytes, sha256: put.sha256, content };
    } catch (e) {
      if (e instanceof ContentRejectedError) throw new AppError(400, ErrorCode.invalidUpload, e.message);
      if (e instanceof ObjectTooLargeError) throw new AppError(413, ErrorCode.payloadTooLarge, `${name}: ${e.message}`);
      const code = (e as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new AppError(413, ErrorCode.payloadTooLarge, `${name}: the file is larger than the upload limit`);
      }
      throw e;
    }
  }

  return {
    /** Stores the upload and queues its analysis; nothing survives a rejected or aborted upload. */
    async create(user: Caller, parts: AsyncIterable<UploadPart>): Promise<{ id: string; status: 'In queue' }> {
      const productId = randomUUID();
      const fields = new Map<string, string[]>();
      let genome: StoredUpload | null = null;
      const attachments: StoredUpload[] = [];
      try {
        for await (const part of parts) {
          if (part.type === 'file') {
            if (part.fieldname === GENOME_FIELD) {
              if (genome) throw new UploadValidationError([{ path: [GENOME_FIELD], message: 'Upload one genome file per case' }]);
              genome = await storeUpload(productId, part, 'genome');
            } else if (part.fieldname === ATTACHMENT_FIELD) {
              if (attachments.length >= Constants.maxAdditionalFiles) {
                throw new AppError(400, ErrorCode.tooManyFiles, Messages.maxFiles);
              }
              attachments.push(await storeUpload(productId, part, 'attachment'));
            } else {
              throw new UploadValidationError([{ path: [part.fieldname], message: `Unexpected file field "${part.fieldname}"` }]);
            }
          } else {
            const list = fields.get(part.fieldname) ?? [];
            list.push(typeof part.value === 'string' ? part.value : String(part.value));
            fields.set(part.fieldname, list);
          }
        }
        const raw: Record<string, unknown> = {};
        for (const [k, v] of fields) raw[k] = TERM_FIELDS.has(k) ? parseTermValues(v) : v[v.length - 1];
        if (raw.imageDescription === '') delete raw.imageDescription;
        const parsed = CreateProductFields.safeParse(raw);
        const issues = parsed.success
          ? []
          : parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message }));
        if (!genome) issues.push({ path: [GENOME_FIELD], message: Messages.mandatory });
        if (!parsed.success || !genome) throw new UploadValidationError(issues);
        const f = parsed.data;
        const ontology = await deps.ontology().catch(() => null);
        if (ontology) {
          const unknown = [...f.hpoTerms, ...f.excludedTerms].filter((t) => ontology.resolve(t) === undefined);
          if (unknown.length) {
            throw new UploadValidationError([{ path: ['hpoTerms'], message: `Unknown HPO terms: ${unknown.join(', ')}` }]);
          }
        }
        const resolveAll = (ids: string[]) => [...new Set(ids.map((t) => ontology?.resolve(t) ?? t))];
        // No term sent: the server reads them from the symptoms itself and records that it did,
        // so a case is never ranked "for 0 patient terms" because the suggestions were pending.
        let terms = { hpoTerms: resolveAll(f.hpoTerms), excludedTerms: resolveAll(f.excludedTerms) };
        let hpoTermsSource: 'given' | 'phenome' = 'given';
        if (terms.hpoTerms.length === 0 && terms.excludedTerms.length === 0 && deps.extractTerms) {
          const extracted = await deps.extractTerms(f.symptoms);
          if (extracted.hpoTerms.length > 0 || extracted.excludedTerms.length > 0) {
            terms = { hpoTerms: resolveAll(extracted.hpoTerms), excludedTerms: resolveAll(extracted.excludedTerms) };
            hpoTermsSource = 'phenome';
          }
        }
        const genomeContent = genome.content as GenomeContent;
        const files = [genome, ...attachments].map((u) => ({
          id: u.id,
          productId,
          role: u.role,
          originalName: u.originalName,
          storageKey: u.storageKey,
          sizeBytes: u.sizeBytes,
          sha256: u.sha256,
          format: u.content.role === 'genome' ? u.content.format : u.content.format,
          compression: u.content.role === 'genome' ? u.content.compression : null,
          mediaType:
            u.content.role === 'genome'
              ? u.content.compression === 'none'
                ? 'text/plain'
                : 'application/gzip'
              : u.content.mediaType,
        }));
        await db.transaction(async (tx) => {
          await repo.insertProduct(
            tx,
            {
              id: productId,
              ownerId: user.id,
              caseId: f.caseId,
              gender: f.gender,
              symptoms: f.symptoms,
              hpoTerms: terms.hpoTerms,
              excludedTerms: terms.excludedTerms,
              hpoTermsSource,
              assemblyRequested: f.assembly,
              genomeFormat: genomeContent.format,
              imageDescription: f.imageDescription ?? null,
              status: 'In queue',
            },
            files,
          );
          await deps.jobs.enqueueAnalysis(tx, { productId });
        });
      } catch (e) {
        await storage.deletePrefix(`products/${productId}`).catch(() => undefined);
        throw e;
      }
      deps.jobs.notify();
      return { id: productId, status: 'In queue' };
    },

    async list(user: Caller): Promise<ProductSummary[]> {
      const rows = await repo.listProducts(db, user);
      return rows.map((r) =>
        presentProductSummary(r.product, {
          isOwner: r.product.ownerId === user.id,
          ownerEmail: r.ownerEmail,
          shareCount: r.shareCount,
        }),
      );
    },

    async get(user: Caller, id: string): Promise<ProductDetails> {
      const found = await access(user, id, 'read');
      const p = found.product;
      const [files, run, shares, label] = await Promise.all([
        repo.listFiles(db, p.id),
        p.currentRunId ? results.findRun(db, p.currentRunId) : Promise.resolve(null),
        repo.listShares(db, p.id),
        labeler(),
      ]);
      return presentProductDetails(p, { isOwner: found.isOwner, ownerEmail: found.ownerEmail, shares }, { files, run, label });
    },

    async phenotypes(user: Caller, id: string, page: results.Page) {
      const { product } = await access(user, id, 'read');
      if (!product.currentRunId) return { items: [], ...page, total: 0, totalIsCapped: false };
      const r = await results.listPhenotypes(db, product.currentRunId, page);
      return { items: r.items.map(presentPhenotype), ...page, total: r.total, totalIsCapped: false };
    },

    async phenotype(user: Caller, id: string, diseaseId: string): Promise<PhenotypeDetails> {
      const { product } = await access(user, id, 'read');
      const runId = product.currentRunId;
      const row = runId ? await results.findPhenotype(db, runId, diseaseId) : null;
      if (!row || !runId) throw new AppError(404, ErrorCode.notFound, 'Phenotype not found in this case');
      const variants = await results.variantsInGenes(db, runId, row.genes, 50);
      return presentPhenotypeDetails(row, variants);
    },

    async genes(user: Caller, id: string, page: results.Page) {
      const { product } = await access(user, id, 'read');
      if (!product.currentRunId) return { items: [], ...page, total: 0, totalIsCapped: false };
      const r = await results.listGenes(db, product.currentRunId, page);
      return { items: r.items.map(presentGene), ...page, total: r.total, totalIsCapped: false };
    },

    async gene(user: Caller, id: string, geneId: string): Promise<GeneDetails> {
      const { product } = await access(user, id, 'read');
      const runId = product.currentRunId;
      const row = runId ? await results.findGene(db, runId, geneId) : null;
      if (!row || !runId) throw new AppError(404, ErrorCode.notFound, 'Gene not found in this case');
      const variants = await results.variantsInGenes(db, runId, [row.symbol], 100);
      return presentGeneDetails(row, variants);
    },

    async variants(user: Caller, id: string, q: VariantListQuery): Promise<VariantListResponse> {
      const { product, storedVariants } = await access(user, id, 'read');
      const page = { page: q.page, pageSize: q.pageSize };
      const runId = product.currentRunId;
      if (!runId) return { mode: q.mode, items: [], ...page, total: 0, totalIsCapped: false };
      const filters: results.VariantFilters = {
        consequence: q.consequence,
        maxAf: q.maxAf,
        clinvar: q.clinvar,
        acmg: q.acmg,
        zygosity: q.zygosity,
        gene: q.gene,
      };
      if (q.mode === 'filtered' && !results.hasFilters(filters)) filters.candidatesOnly = true;
      if (q.mode === 'clustered') {
        const r = await results.listVariantClusters(db, runId, filters, page, 20);
        return {
          mode: 'clustered',
          ...page,
          total: r.total,
          totalIsCapped: false,
          items: r.items.map((c) => ({
            gene: { symbol: c.symbol, rank: c.geneRank, score: c.geneScore },
            variantCount: c.variantCount,
            variants: c.variants.map(presentVariant),
          })),
        };
      }
      const knownTotal =
        !results.hasFilters(filters) && !filters.candidatesOnly && storedVariants !== null ? storedVariants : undefined;
      const r = await results.listVariants(db, runId, filters, page, knownTotal);
      return { mode: q.mode, items: r.items.map(presentVariant), ...page, total: r.total, totalIsCapped: r.capped };
    },

    async variant(user: Caller, id: string, variantId: number): Promise<VariantDetails> {
      const { product } = await access(user, id, 'read');
      const runId = product.currentRunId;
      const row = runId ? await results.findVariant(db, runId, variantId) : null;
      if (!row || !runId) throw new AppError(404, ErrorCode.notFound, 'Variant not found in this case');
      const run = await results.findRun(db, runId);
      return presentVariantDetails(row, run?.inputAssembly ?? 'unknown');
    },

    /** Saves new terms; a Completed case is re-ranked from its stored variants. */
    async updateTerms(user: Caller, id: string, body: UpdatePhenotypeTermsBody) {
      const { product } = await access(user, id, 'edit');
      const ontology = await deps.ontology().catch(() => null);
      if (ontology) {
        const unknown = [...body.hpoTerms, ...body.excludedTerms].filter((t) => ontology.resolve(t) === undefined);
        if (unknown.length) throw new UploadValidationError([{ path: ['hpoTerms'], message: `Unknown HPO terms: ${unknown.join(', ')}` }]);
      }
      const norm = (ids: string[]) => [...new Set(ids.map((t) => ontology?.resolve(t) ?? t))];
      const terms = { hpoTerms: norm(body.hpoTerms), excludedTerms: norm(body.excludedTerms) };
      const rerank = product.status === 'Completed' && product.currentRunId !== null;
      await db.transaction(async (tx) => {
        await repo.updateTerms(tx, product.id, terms);
        if (rerank) await deps.jobs.enqueueRerank(tx, { productId: product.id });
      });
      if (rerank) deps.jobs.notify();
      return { id: product.id, status: product.status, rerankQueued: rerank };
    },

    async shares(user: Caller, id: string) {
      const { product } = await access(user, id, 'share');
      return { emails: await repo.listShares(db, product.id) };
    },

    async share(user: Caller, id: string, email: string) {
      const { product } = await access(user, id, 'share');
      if (email === user.email) throw new AppError(400, ErrorCode.badRequest, 'You cannot share a case with yourself');
      await repo.addShare(db, product.id, email);
      return { emails: await repo.listShares(db, product.id) };
    },

    async unshare(user: Caller, id: string, email: string) {
      const { product } = await access(user, id, 'share');
      if (!(await repo.removeShare(db, product.id, email))) {
        throw new AppError(404, ErrorCode.notFound, 'The case is not shared with this e-mail');
      }
      return { emails: await repo.listShares(db, product.id) };
    },

    /** An uploaded file (additional file or the genome original) as a stream. */
    async file(user: Caller, id: string, fileId: string): Promise<{ file: ProductFileRow; stream: Readable }> {
      const { product } = await access(user, id, 'read');
      const file = /^[0-9a-f-]{36}$/i.test(fileId) ? await repo.findFile(db, product.id, fileId) : null;
      if (!file) throw new AppError(404, ErrorCode.notFound, 'File not found in this case');
      return { file, stream: await storage.get(file.storageKey) };
    },

    /** For the IGV routes: the readable current run of a case. */
    async readableRun(user: Caller, id: string): Promise<{ product: ProductRow; runId: string | null }> {
      const { product } = await access(user, id, 'read');
      return { product, runId: product.currentRunId };
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
