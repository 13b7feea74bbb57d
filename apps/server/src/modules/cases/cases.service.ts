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
  MAX_RELATIVE_VCFS,
  Messages,
  type ProductDetails,
  type ProductSummary,
  type UpdatePhenotypeTermsBody,
} from '@rarelens/contract';
import { isOnsetTerm, readVcfSampleNames, VcfParseError, type Ontology } from '@rarelens/engine';
import type { Database, Executor } from '../../db/database.ts';
import { AppError, Errors } from '../../errors.ts';
import {
  ContentRejectedError,
  sniffAttachment,
  sniffGenome,
  type AttachmentContent,
  type GenomeContent,
} from '../../storage/content-type.ts';
import { ObjectTooLargeError, type ObjectStorage } from '../../storage/object-storage.ts';
import type { AnalysisRunRow, ProductFileRow, ProductRow, StoredPedigree } from '../../db/schema/products.ts';
import { checkPedigreeUpload, checkSeparateVcfs, MAX_PED_BYTES, PEDIGREE_FIELD, PROBAND_FIELD, RELATIVES_FIELD } from '../family/index.ts';
import type { ActivityRecorder, RequestOrigin } from '../activity/index.ts';
import type { GenomeCheck } from './genome-check.ts';
import { callerKey, type CaseAccessCache } from './case-access-cache.ts';
import { assertCan, caseNotFound, type CaseAccessLevel, type CaseAction } from './cases.policy.ts';
import { presentCaseDetails, presentCaseSummary } from './cases.presenter.ts';
import * as repo from './cases.repository.ts';

/** How an analysis run is shown (also by GenomeTalks). */
export { presentRun } from './cases.presenter.ts';
/** Reading a checked case's current run (the genes, phenotypes and variants services). */
export { itemOfCurrentRun, pageOfCurrentRun } from './current-run.ts';

/** A multipart part as the route hands it over (file stream or text field). */
export type UploadPart =
  | { type: 'file'; fieldname: string; filename: string; file: Readable }
  | { type: 'field'; fieldname: string; value: unknown };

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
  /** The owner's name and surname as one (empty when the profile has none). */
  ownerName: string;
  /** Variants stored by the current run (the total of an unfiltered variant list). */
  storedVariants: number | null;
  /** When the current run was last ranked (changes with every re-ranking); null before. */
  runRankedAt: string | null;
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

/**
 * The access check. `cache` (PostgreSQL, case-access-cache.ts) answers reads from memory once
 * the caller was found to have access; edits and shares always ask the database.
 */
export function createCaseAccess(db: Database['db'], cache?: CaseAccessCache): CaseAccess {
  return {
    async check(user, id, action) {
      if (!UUID.test(id)) throw caseNotFound();
      const load = () => repo.findAccessibleCase(db, id, user);
      const found =
        cache && action === 'read'
          ? ((await cache.lookup(id, callerKey(user), async () => {
              const answer = await load();
              return answer ? { value: answer, until: Number.POSITIVE_INFINITY } : undefined;
            })) ?? null)
          : await load();
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
  /** The user's activity log (a deleted case is recorded there). Absent = not recorded. */
  activity?: ActivityRecorder;
  /** Where problems that do not fail the request are reported (e.g. files left in storage). */
  logger?: { warn(obj: object, msg: string): void };
  uploadMaxBytes: number;
  /** Cases of one user that may be queued or running at once (absent = no limit). */
  maxActiveAnalyses?: number;
  /** The HPO ontology of the knowledge base, or null when no KB is built. */
  ontology: () => Promise<Ontology | null>;
  /**
   * PhenomeAI with the shipped configuration: the terms of a case submitted with symptoms but
   * without any HPO term (e.g. before the suggestions arrived). Absent = no extraction.
   */
  extractTerms?: (symptoms: string) => Promise<{ hpoTerms: string[]; excludedTerms: string[] }>;
  /**
   * Checks the stored genome before the case is queued (parses, has records, assembly known or
   * inferred): an input problem is a 400 naming the field, never a failed job. Absent = no check.
   */
  checkGenome?: GenomeCheck;
  /**
   * Plans (orders module, RARELENS_BILLING): may the user upload at all, checked before a byte is
   * stored; and the case counted against the active plan inside the transaction that creates it
   * (FASTQ needs the raw data add-on). Both no-ops with billing off. Absent = nothing limited.
   */
  billing?: CaseBillingPort;
}

/** What the cases module asks of plans and orders (issue 18 item 2). */
export interface CaseBillingPort {
  /** Throws 402 "Add a product to continue" when billing is on and no active plan has a case left. */
  assertCanUpload(user: { id: string }): Promise<void>;
  /** Counts the new case against the plan (throws 402 when none fits), inside the case's transaction. */
  useCase(tx: Executor, userId: string, kase: { productId: string; isRawData: boolean }): Promise<void>;
}

const GENOME_FIELD = 'genomeFile';
const MATE_FIELD = 'genomeMateFile';
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
  role: 'genome' | 'mate' | 'attachment' | 'relative';
  originalName: string;
  storageKey: string;
  sizeBytes: number;
  sha256: string;
  content: GenomeContent | AttachmentContent;
}

/** Reads an uploaded PED file (a few lines of text) into memory, refusing anything larger than MAX_PED_BYTES. */
async function readPedigreeFile(part: Extract<UploadPart, { type: 'file' }>, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PED_BYTES) {
      part.file.resume();
      throw Errors.validation([{ path: [PEDIGREE_FIELD], message: `${name}: a PED file is a few lines of text; this one is larger than ${MAX_PED_BYTES / (1 << 20)} MB` }]);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.includes('\u0000') || text.includes('\ufffd')) throw Errors.validation([{ path: [PEDIGREE_FIELD], message: `${name}: not a PED text file (binary content)` }]);
  return text;
}

function safeName(name: string): string {
  // Drop any directory part and control characters (C0 and DEL).
  const base = [...name.replace(/^.*[\\/]/, '')].filter((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127).join('').trim();
  return (base || 'file').slice(0, 255);
}

const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** A connection failure to the object store (its SDK wraps the socket error). */
function isStoreUnreachable(e: unknown): boolean {
  for (let err: unknown = e, depth = 0; err instanceof Error && depth < 5; err = err.cause, depth++) {
    const code = (err as { code?: string }).code;
    if (code !== undefined && NETWORK_ERRORS.has(code)) return true;
    if (err.name === 'TimeoutError') return true;
    // The store answered with a server error (S3Error carries its HTTP status).
    if (err.name === 'S3Error' && ((err as { status?: number }).status ?? 0) >= 500) return true;
  }
  return false;
}

/** A VCF of the upload to read sample names from. */
interface SampleSource {
  field: string;
  name: string;
  format: string;
  open: () => Promise<Readable>;
}

async function sampleNamesOf(file: SampleSource): Promise<string[]> {
  try {
    return await readVcfSampleNames(await file.open(), file.name);
  } catch (e) {
    if (e instanceof VcfParseError) throw Errors.validation([{ path: [file.field], message: e.message }]);
    throw e;
  }
}

/**
 * The family of an upload, checked against the VCF's samples before the case is queued: a PED
 * file (every PED sample in the VCF, one proband, consistent sexes and parents, no cycles) and/or
 * the proband's sample name. Each problem is an issue on its field naming the sample. With the
 * relatives' separately called VCFs, the samples are those of every file (one person each), and
 * a pedigree is required to say who is who.
 */
async function checkFamilyUpload(
  genome: SampleSource,
  relatives: readonly SampleSource[],
  pedigree: { name: string; text: string } | null,
  probandSample: string | null,
): Promise<{ pedigree: StoredPedigree | null; probandSample: string | null }> {
  const genomeName = genome.name;
  if (relatives.length) {
    const issues = [genome, ...relatives]
      .filter((f) => f.format !== 'vcf')
      .map((f) => ({ path: [f.field], message: `${f.name}: separately called relatives' VCFs are merged with the genome file, so every one must be a VCF (this is ${f.format.toUpperCase()})` }));
    if (!pedigree) issues.push({ path: [RELATIVES_FIELD], message: "The relatives' VCFs need a pedigree (a PED file or the family editor) saying how each person is related to the proband" });
    if (issues.length) throw Errors.validation(issues);
  }
  if (!pedigree && !probandSample) return { pedigree: null, probandSample: null };
  const field = pedigree ? PEDIGREE_FIELD : PROBAND_FIELD;
  if (genome.format !== 'vcf') throw Errors.validation([{ path: [field], message: `A pedigree and proband sample apply to a VCF; ${genomeName} is not one` }]);
  let samples = await sampleNamesOf(genome);
  if (relatives.length) {
    const files = [genome, ...relatives];
    const checked = checkSeparateVcfs(await Promise.all(files.map(async (f) => ({ field: f.field, name: f.name, samples: f === genome ? samples : await sampleNamesOf(f) }))));
    if (!checked.ok) throw Errors.validation(checked.issues);
    samples = checked.samples;
  }
  if (pedigree) {
    const r = checkPedigreeUpload(pedigree.text, pedigree.name, samples, probandSample);
    if (!r.ok) throw Errors.validation(r.issues);
    return { pedigree: { source: pedigree.name, proband: r.proband, members: r.members }, probandSample: r.proband };
  }
  if (!samples.includes(probandSample!)) {
    throw Errors.validation([
      { path: [PROBAND_FIELD], message: `Sample ${probandSample} is not in ${genomeName} (samples: ${samples.length ? samples.join(', ') : 'none'})` },
    ]);
  }
  return { pedigree: null, probandSample };
}

export function createCasesService(deps: CasesServiceDeps) {
  const { database, storage } = deps;
  const db = database.db;
  const access = (user: Caller, id: string, action: CaseAction) => deps.access.check(user, id, action);

  async function labeler(): Promise<(id: string) => string> {
    const ontology = await deps.ontology().catch(() => null);
    return (id) => ontology?.label(id) ?? id;
  }

  /**
   * Checks `given` against the KB's HPO ontology (400 naming the unknown terms) and returns a
   * resolver of ids to their current ids. No ontology is an error (503), never a skipped check.
   */
  async function termResolver(given: string[]): Promise<(ids: string[]) => string[]> {
    let ontology: Ontology | null;
    try {
      ontology = await deps.ontology();
    } catch (e) {
      throw Errors.kbUnavailable(`The HPO ontology of the knowledge base failed to load, so HPO terms cannot be checked: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (ontology === null) throw Errors.kbUnavailable('The knowledge base has no HPO ontology (build it with `rarelens kb build`), so HPO terms cannot be checked.');
    const known = ontology;
    const unknown = given.filter((t) => known.resolve(t) === undefined);
    if (unknown.length) throw Errors.validation([{ path: ['hpoTerms'], message: `Unknown HPO terms: ${unknown.join(', ')}` }]);
    return (ids) => [...new Set(ids.map((t) => known.resolve(t) ?? t))];
  }

  async function assertAnalysisSlot(executor: Parameters<typeof repo.countActiveCases>[0], user: Caller): Promise<void> {
    const max = deps.maxActiveAnalyses;
    if (max === undefined) return;
    const active = await repo.countActiveCases(executor, user.id);
    if (active >= max) {
      throw new AppError(
        429,
        ErrorCode.rateLimited,
        `You already have ${active} ${active === 1 ? 'analysis' : 'analyses'} queued or running (the limit is ${max}); upload this case when one of them has finished.`,
      );
    }
  }

  async function storeUpload(caseUuid: string, part: Extract<UploadPart, { type: 'file' }>, role: StoredUpload['role']): Promise<StoredUpload> {
    const id = randomUUID();
    const name = safeName(part.filename);
    const storageKey = `products/${caseUuid}/${id}`;
    let content: GenomeContent | AttachmentContent | null = null;
    try {
      const put = await storage.put(storageKey, part.file, {
        maxBytes: deps.uploadMaxBytes,
        inspect: (sample) => {
          content = role === 'attachment' ? sniffAttachment(sample, name) : sniffGenome(sample, name);
        },
      });
      if (!content) throw new ContentRejectedError(name, 'the file is empty');
      return { id, role, originalName: name, storageKey, sizeBytes: put.bytes, sha256: put.sha256, content };
    } catch (e) {
      const onField = (message: string) => [{ path: [part.fieldname], message }];
      if (e instanceof ContentRejectedError) throw new AppError(400, ErrorCode.invalidUpload, e.message, onField(e.message));
      if (e instanceof ObjectTooLargeError) {
        const message = `${name}: ${e.message}`;
        throw new AppError(413, ErrorCode.payloadTooLarge, message, onField(message));
      }
      const code = (e as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') {
        const message = `${name}: the file is larger than the upload limit`;
        throw new AppError(413, ErrorCode.payloadTooLarge, message, onField(message));
      }
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        const message = `${name}: the server has no space left to store this file; nothing was kept. Please try again later or tell your administrator.`;
        throw new AppError(507, ErrorCode.storageFull, message, onField(message));
      }
      if (isStoreUnreachable(e)) {
        const message = `${name}: the file store did not answer; nothing was kept. Please try again.`;
        throw new AppError(503, ErrorCode.storageUnavailable, message, onField(message));
      }
      throw e;
    }
  }

  return {
    /** Stores the upload and queues its analysis; nothing survives a rejected or aborted upload. */
    async create(user: Caller, parts: AsyncIterable<UploadPart>): Promise<{ id: string; status: 'In queue' }> {
      const caseUuid = randomUUID();
      // Refused before a byte is stored; checked again in the transaction that queues the case.
      await assertAnalysisSlot(db, user);
      await deps.billing?.assertCanUpload(user);
      const fields = new Map<string, string[]>();
      let genome: StoredUpload | null = null;
      let mate: StoredUpload | null = null;
      const attachments: StoredUpload[] = [];
      const relatives: StoredUpload[] = [];
      let pedigreeUpload: { name: string; text: string } | null = null;
      try {
        for await (const part of parts) {
          if (part.type === 'file') {
            if (part.fieldname === GENOME_FIELD) {
              if (genome) throw Errors.validation([{ path: [GENOME_FIELD], message: 'Upload one genome file per case' }]);
              genome = await storeUpload(caseUuid, part, 'genome');
            } else if (part.fieldname === MATE_FIELD) {
              if (mate) throw Errors.validation([{ path: [MATE_FIELD], message: 'Upload one mate file per case' }]);
              mate = await storeUpload(caseUuid, part, 'mate');
            } else if (part.fieldname === ATTACHMENT_FIELD) {
              if (attachments.length >= Constants.maxAdditionalFiles) {
                throw new AppError(400, ErrorCode.tooManyFiles, Messages.maxFiles);
              }
              attachments.push(await storeUpload(caseUuid, part, 'attachment'));
            } else if (part.fieldname === RELATIVES_FIELD) {
              if (relatives.length >= MAX_RELATIVE_VCFS) {
                throw Errors.validation([{ path: [RELATIVES_FIELD], message: `Upload at most ${MAX_RELATIVE_VCFS} relatives' VCFs per case (or one joint-called family VCF as the genome file)` }]);
              }
              relatives.push(await storeUpload(caseUuid, part, 'relative'));
            } else if (part.fieldname === PEDIGREE_FIELD) {
              if (pedigreeUpload) throw Errors.validation([{ path: [PEDIGREE_FIELD], message: 'Upload one pedigree (PED) file per case' }]);
              const name = safeName(part.filename);
              pedigreeUpload = { name, text: await readPedigreeFile(part, name) };
            } else {
              throw Errors.validation([{ path: [part.fieldname], message: `Unexpected file field "${part.fieldname}"` }]);
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
        if (!parsed.success || !genome) throw Errors.validation(issues);
        const f = parsed.data;
        const resolveAll = await termResolver([...f.hpoTerms, ...f.excludedTerms]);
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
        const storedGenome = genome;
        const storedMate = mate;
        if (storedMate) {
          const mateFormat = (storedMate.content as GenomeContent).format;
          if (genomeContent.format !== 'fastq' || mateFormat !== 'fastq') {
            throw Errors.validation([
              { path: [MATE_FIELD], message: `${storedMate.originalName}: a mate file goes with paired FASTQ reads (genome file and mate file both FASTQ)` },
            ]);
          }
        }
        const checked = deps.checkGenome
          ? await deps.checkGenome({
              open: () => storage.get(storedGenome.storageKey),
              name: storedGenome.originalName,
              format: genomeContent.format,
              assembly: f.assembly,
              ...(storedMate ? { mate: { open: () => storage.get(storedMate.storageKey), name: storedMate.originalName } } : {}),
            })
          : null;
        if (checked !== null && !checked.ok) throw Errors.validation([{ path: [checked.field], message: checked.message }]);
        const source = (u: StoredUpload, field: string): SampleSource => ({ field, name: u.originalName, format: (u.content as GenomeContent).format, open: () => storage.get(u.storageKey) });
        const family = await checkFamilyUpload(
          source(storedGenome, GENOME_FIELD),
          relatives.map((r) => source(r, RELATIVES_FIELD)),
          pedigreeUpload,
          f.probandSample || null,
        );
        const files = [genome, ...(mate ? [mate] : []), ...relatives, ...attachments].map((u) => ({
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
          await assertAnalysisSlot(tx, user);
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
              assemblyRequested: checked?.ok ? checked.assembly : f.assembly,
              genomeFormat: genomeContent.format,
              imageDescription: f.imageDescription ?? null,
              pedigree: family.pedigree,
              probandSample: family.probandSample,
              status: 'In queue',
            },
            files,
          );
          await deps.billing?.useCase(tx, user.id, { productId: caseUuid, isRawData: genomeContent.format === 'fastq' });
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
          ownerName: r.ownerName,
          shareCount: r.shareCount,
        }),
      );
    },

    async get(user: Caller, id: string): Promise<ProductDetails> {
      const found = await access(user, id, 'read');
      const c = found.caseRow;
      const [files, run, shares, label, ontology] = await Promise.all([
        repo.listFiles(db, c.id),
        c.currentRunId ? deps.access.run(c.currentRunId) : Promise.resolve(null),
        deps.shareEmails(c.id),
        labeler(),
        deps.ontology().catch(() => null),
      ]);
      // An age-of-onset term is shown as the patient's onset (the ranking scores it as such).
      const isOnset = (t: string): boolean => !!ontology && isOnsetTerm(ontology, t);
      return presentCaseDetails(c, { isOwner: found.isOwner, ownerEmail: found.ownerEmail, ownerName: found.ownerName, shares }, { files, run, label, isOnset });
    },

    /** Saves new terms; a Completed case is re-ranked from its stored variants. */
    async updateTerms(user: Caller, id: string, body: UpdatePhenotypeTermsBody) {
      const { caseRow } = await access(user, id, 'edit');
      const norm = await termResolver([...body.hpoTerms, ...body.excludedTerms]);
      const terms = { hpoTerms: norm(body.hpoTerms), excludedTerms: norm(body.excludedTerms) };
      const rerank = caseRow.status === 'Completed' && caseRow.currentRunId !== null;
      await db.transaction(async (tx) => {
        await repo.updateTerms(tx, caseRow.id, terms);
        if (rerank) await deps.jobs.enqueueRerank(tx, { productId: caseRow.id });
      });
      if (rerank) deps.jobs.notify();
      return { id: caseRow.id, status: caseRow.status, rerankQueued: rerank };
    },

    /**
     * Deletes a case the caller owns, with its files in storage. A case queued or being
     * analysed is refused (409): wait until it completes or fails.
     */
    async remove(user: Caller, id: string, origin: RequestOrigin = {}): Promise<{ message: string }> {
      const { caseRow } = await access(user, id, 'edit');
      if (caseRow.status === 'In queue' || caseRow.status === 'Processing') {
        throw new AppError(409, ErrorCode.caseBusy, `Case ${caseRow.caseId} is being analysed; delete it once the analysis has completed or failed.`);
      }
      await db.transaction(async (tx) => {
        await repo.deleteCase(tx, caseRow.id);
        await deps.activity?.record(user.id, 'case_deleted', { caseId: caseRow.caseId }, origin, tx);
      });
      // The rows are gone; files the store could not delete now are named in the log for cleanup.
      await storage.deletePrefix(`products/${caseRow.id}`).catch((error: unknown) =>
        deps.logger?.warn({ err: error, storagePrefix: `products/${caseRow.id}` }, 'case deleted, but its files could not be removed from storage'),
      );
      return { message: `Case ${caseRow.caseId} deleted` };
    },

    /** Queues a failed case again with its stored files (the owner only; 409 unless it failed). */
    async retry(user: Caller, id: string): Promise<{ id: string; status: 'In queue' }> {
      const { caseRow } = await access(user, id, 'edit');
      const notFailed = () =>
        new AppError(409, ErrorCode.caseNotFailed, `Case ${caseRow.caseId} has not failed (it is ${caseRow.status}); only a failed analysis can be retried.`);
      if (caseRow.status !== 'Error') throw notFailed();
      await db.transaction(async (tx) => {
        await assertAnalysisSlot(tx, user);
        if (!(await repo.requeueFailedCase(tx, caseRow.id))) throw notFailed();
        await deps.jobs.enqueueAnalysis(tx, { productId: caseRow.id });
      });
      deps.jobs.notify();
      return { id: caseRow.id, status: 'In queue' };
    },

    /**
     * An uploaded file as a stream. Supporting files can be read by everyone who may read the
     * case; the genome original only by its owner (a shared user sees the results, never the raw
     * genome).
     */
    async file(user: Caller, id: string, fileId: string): Promise<{ file: ProductFileRow; stream: Readable }> {
      const { caseRow, isOwner } = await access(user, id, 'read');
      const file = /^[0-9a-f-]{36}$/i.test(fileId) ? await repo.findFile(db, caseRow.id, fileId) : null;
      if (!file) throw new AppError(404, ErrorCode.notFound, 'File not found in this case');
      if (file.role !== 'attachment' && !isOwner) {
        throw new AppError(403, ErrorCode.forbidden, 'Only the owner of the case can download the genome file');
      }
      return { file, stream: await storage.get(file.storageKey) };
    },
  };
}

export type CasesService = ReturnType<typeof createCasesService>;
