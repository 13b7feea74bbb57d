/**
 * Cases: upload (stream to storage, check content, queue the analysis in the same
 * transaction as the case row), listing, details, files and phenotype-term edits (re-rank).
 * `createCaseAccess` is the one access check every module of a case goes through.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  Constants,
  CreateProductFields,
  ErrorCode,
  Messages,
  type ProductDetails,
  type ProductSummary,
  type UpdatePhenotypeTermsBody,
} from '@rarelens/contract';
import type { Ontology } from '@rarelens/engine';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import {
  ContentRejectedError,
  sniffAttachment,
  sniffGenome,
  type AttachmentContent,
  type GenomeContent,
} from '../../storage/content-type.ts';
import { ObjectTooLargeError, type ObjectStorage } from '../../storage/object-storage.ts';
import type { AnalysisRunRow, ProductFileRow, ProductRow } from '../../db/schema/products.ts';
import { assertCan, caseNotFound, type CaseAccessLevel, type CaseAction } from './cases.policy.ts';
import { presentCaseDetails, presentCaseSummary } from './cases.presenter.ts';
import * as repo from './cases.repository.ts';

/** How an analysis run is shown (also by GenomeTalks). */
export { presentRun } from './cases.presenter.ts';

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

/** Queues the analysis jobs of a case (implemented by jobs/jobs.module.ts). */
export interface CaseJobsPort {
  /** Queues the analysis of an uploaded case, inside the transaction that created it. */
  enqueueAnalysis(tx: Database['db'], payload: { productId: string }): Promise<void>;
  /** Queues a re-rank after the terms changed, inside the transaction that saved them. */
  enqueueRerank(tx: Database['db'], payload: { productId: string }): Promise<void>;
  /** Called after the enqueuing transaction committed (wakes an in-process worker). */
  notify(): void;
}

export interface Caller {
  id: string;
  email: string;
}

/** A case the caller may act on, with what the access check read in the same query. */
export interface AccessibleCase {
  caseRow: ProductRow;
  isOwner: boolean;
  ownerEmail: string;
  /** Variants stored by the current run (the total of an unfiltered variant list). */
  storedVariants: number | null;
}

/** The access check of every route under a case, and what other modules read of a case. */
export interface CaseAccess {
  /** The case if `user` may do `action` on it; 404 when the user cannot see it, 403 when they only read it. */
  check(user: Caller, id: string, action: CaseAction): Promise<AccessibleCase>;
  /** An analysis run (the current run of a checked case). */
  run(runId: string): Promise<AnalysisRunRow | null>;
  /** The uploaded files of a checked case. */
  files(caseId: string): Promise<ProductFileRow[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createCaseAccess(db: Database['db']): CaseAccess {
  return {
    async check(user, id, action) {
      if (!UUID.test(id)) throw caseNotFound();
      const found = await repo.findAccessibleCase(db, id, user);
      const level: CaseAccessLevel | null = found ? (found.isOwner ? 'owner' : 'shared') : null;
      assertCan(level, action);
      return found!;
    },
    run: (runId) => repo.findRun(db, runId),
    files: (caseId) => repo.listFiles(db, caseId),
  };
}

export interface CasesServiceDeps {
  database: Database;
  storage: ObjectStorage;
  access: CaseAccess;
  jobs: CaseJobsPort;
  /** The e-mails a case is shared with (sharing module). */
  shareEmails: (caseId: string) => Promise<string[]>;
  uploadMaxBytes: number;
  /** The HPO ontology of the knowledge base, or null when no KB is built. */
  ontology: () => Promise<Ontology | null>;
  /**
   * PhenomeAI with the shipped configuration: the terms of a case submitted with symptoms but
   * without any HPO term (e.g. before the suggestions arrived). Absent = no extraction.
   */
  extractTerms?: (symptoms: string) => Promise<{ hpoTerms: string[]; excludedTerms: string[] }>;
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

export function createCasesService(deps: CasesServiceDeps) {
  const { database, storage } = deps;
  const db = database.db;
  const access = (user: Caller, id: string, action: CaseAction) => deps.access.check(user, id, action);

  async function labeler(): Promise<(id: string) => string> {
    const ontology = await deps.ontology().catch(() => null);
    return (id) => ontology?.label(id) ?? id;
  }

  async function storeUpload(caseUuid: string, part: Extract<UploadPart, { type: 'file' }>, role: 'genome' | 'attachment'): Promise<StoredUpload> {
    const id = randomUUID();
    const name = safeName(part.filename);
    const storageKey = `products/${caseUuid}/${id}`;
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
      const caseUuid = randomUUID();
      const fields = new Map<string, string[]>();
      let genome: StoredUpload | null = null;
      const attachments: StoredUpload[] = [];
      try {
        for await (const part of parts) {
          if (part.type === 'file') {
            if (part.fieldname === GENOME_FIELD) {
              if (genome) throw new UploadValidationError([{ path: [GENOME_FIELD], message: 'Upload one genome file per case' }]);
              genome = await storeUpload(caseUuid, part, 'genome');
            } else if (part.fieldname === ATTACHMENT_FIELD) {
              if (attachments.length >= Constants.maxAdditionalFiles) {
                throw new AppError(400, ErrorCode.tooManyFiles, Messages.maxFiles);
              }
              attachments.push(await storeUpload(caseUuid, part, 'attachment'));
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
          productId: caseUuid,
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
          await repo.insertCase(
            tx,
            {
              id: caseUuid,
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
          await deps.jobs.enqueueAnalysis(tx, { productId: caseUuid });
        });
      } catch (e) {
        await storage.deletePrefix(`products/${caseUuid}`).catch(() => undefined);
        throw e;
      }
      deps.jobs.notify();
      return { id: caseUuid, status: 'In queue' };
    },

    async list(user: Caller): Promise<ProductSummary[]> {
      const rows = await repo.listCases(db, user);
      return rows.map((r) =>
        presentCaseSummary(r.caseRow, {
          isOwner: r.caseRow.ownerId === user.id,
          ownerEmail: r.ownerEmail,
          shareCount: r.shareCount,
        }),
      );
    },

    async get(user: Caller, id: string): Promise<ProductDetails> {
      const found = await access(user, id, 'read');
      const c = found.caseRow;
      const [files, run, shares, label] = await Promise.all([
        repo.listFiles(db, c.id),
        c.currentRunId ? deps.access.run(c.currentRunId) : Promise.resolve(null),
        deps.shareEmails(c.id),
        labeler(),
      ]);
      return presentCaseDetails(c, { isOwner: found.isOwner, ownerEmail: found.ownerEmail, shares }, { files, run, label });
    },

    /** Saves new terms; a Completed case is re-ranked from its stored variants. */
    async updateTerms(user: Caller, id: string, body: UpdatePhenotypeTermsBody) {
      const { caseRow } = await access(user, id, 'edit');
      const ontology = await deps.ontology().catch(() => null);
      if (ontology) {
        const unknown = [...body.hpoTerms, ...body.excludedTerms].filter((t) => ontology.resolve(t) === undefined);
        if (unknown.length) throw new UploadValidationError([{ path: ['hpoTerms'], message: `Unknown HPO terms: ${unknown.join(', ')}` }]);
      }
      const norm = (ids: string[]) => [...new Set(ids.map((t) => ontology?.resolve(t) ?? t))];
      const terms = { hpoTerms: norm(body.hpoTerms), excludedTerms: norm(body.excludedTerms) };
      const rerank = caseRow.status === 'Completed' && caseRow.currentRunId !== null;
      await db.transaction(async (tx) => {
        await repo.updateTerms(tx, caseRow.id, terms);
        if (rerank) await deps.jobs.enqueueRerank(tx, { productId: caseRow.id });
      });
      if (rerank) deps.jobs.notify();
      return { id: caseRow.id, status: caseRow.status, rerankQueued: rerank };
    },

    /** An uploaded file (additional file or the genome original) as a stream. */
    async file(user: Caller, id: string, fileId: string): Promise<{ file: ProductFileRow; stream: Readable }> {
      const { caseRow } = await access(user, id, 'read');
      const file = /^[0-9a-f-]{36}$/i.test(fileId) ? await repo.findFile(db, caseRow.id, fileId) : null;
      if (!file) throw new AppError(404, ErrorCode.notFound, 'File not found in this case');
      return { file, stream: await storage.get(file.storageKey) };
    },
  };
}

export type CasesService = ReturnType<typeof createCasesService>;
