/**
 * buildApp: the whole HTTP application, without listening (tests use `app.inject()`).
 * Every module is listed here: one folder per resource under modules/, registered under
 * /api/<resource> (a case's resources under the spec's /api/products/:id/...). Shared
 * infrastructure (database, storage, knowledge base, job queue) is built here and handed to
 * the modules; modules reuse `app.authenticate`, `app.database`, `app.mailer` and
 * `app.config` (see docs/ARCHITECTURE.md).
 */
import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { createActivityService } from './modules/activity/activity.service.ts';
import { ErrorCode, Messages } from '@rarelens/contract';
import type { Ontology } from '@rarelens/engine';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { interactiveRequests } from './db/bulk-copy.ts';
import { createDatabase, type Database } from './db/database.ts';
import type { Config } from './env.ts';
import { AppError } from './errors.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { accountRoutes } from './modules/account/account.routes.ts';
import { createAccountService } from './modules/account/account.service.ts';
import { createSessionCookies } from './modules/auth/auth.cookies.ts';
import { scheduleAuthHousekeeping } from './modules/auth/auth.housekeeping.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createSessionCache, type SessionCache } from './modules/auth/session-cache.ts';
import { createTokenService, type TokenService } from './modules/auth/token.service.ts';
import { createInboxForwarder } from './mail/forward-to-inbox.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { createContactService } from './modules/contact/contact.service.ts';
import { demoRequestsRoutes } from './modules/demo-requests/demo-requests.routes.ts';
import { createDemoRequestsService } from './modules/demo-requests/demo-requests.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createEngineAnalysis, type AnalysisEngine } from './jobs/analysis-engine.ts';
import { createThreadedEngine } from './jobs/engine-thread/threaded-engine.ts';
import { createJobsModule, loadJobsConfig, type JobsConfig } from './jobs/jobs.module.ts';
import { rawDataDepsOf } from './jobs/reads/raw-data.stage.ts';
import { builtReference, describeReference } from './jobs/reads/reference.ts';
import { createKnowledgeBase, type KnowledgeBase } from './kb/knowledge-base.ts';
import { createCaseAnalysisStore } from './modules/analysis/analysis.service.ts';
import { casesRoutes } from './modules/cases/cases.routes.ts';
import { createCaseAccess, createCasesService } from './modules/cases/cases.service.ts';
import { createCaseAccessCache, type CaseAccessCache } from './modules/cases/case-access-cache.ts';
import { createGenomeCheck, genomeCheckSources, type GenomeCheck } from './modules/cases/genome-check.ts';
import { registerChatModule, type ChatModuleOptions } from './modules/chat/chat.module.ts';
import { genesRoutes } from './modules/genes/genes.routes.ts';
import { createGenesService } from './modules/genes/genes.service.ts';
import { hpoRoutes } from './modules/hpo/hpo.routes.ts';
import { textOntologyLoader } from './kb/text-ontology.ts';
import { proteinIdsLoader } from './kb/protein-ids.ts';
import { sourcesDir as defaultSourcesDir } from '@rarelens/phenome';
import { igvRoutes } from './modules/igv/igv.routes.ts';
import { rawDataRoutes, readsReferenceRoutes } from './modules/raw-data/raw-data.routes.ts';
import { createRawDataService } from './modules/raw-data/raw-data.service.ts';
import { createIgvService } from './modules/igv/igv.service.ts';
import { createOrdersServiceFor, registerOrdersModule } from './modules/orders/orders.module.ts';
import { registerPhenomeModule } from './modules/phenome/phenome.module.ts';
import { caseTermsFromText, createPhenomeService } from './modules/phenome/phenome.service.ts';
import { phenotypesRoutes } from './modules/phenotypes/phenotypes.routes.ts';
import { createPhenotypesService } from './modules/phenotypes/phenotypes.service.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { createReportsService } from './modules/reports/reports.service.ts';
import { sharedLinkRoutes, shareSettingsRoutes, sharingRoutes } from './modules/sharing/sharing.routes.ts';
import { createSharingService } from './modules/sharing/sharing.service.ts';
import { familyRoutes } from './modules/family/family.routes.ts';
import { createFamilyService } from './modules/family/family.service.ts';
import { variantsRoutes } from './modules/variants/variants.routes.ts';
import { variantClassificationsRoutes } from './modules/variant-classifications/variant-classifications.routes.ts';
import { createReviewLookup, createVariantClassificationsService } from './modules/variant-classifications/variant-classifications.service.ts';
import { presentClassificationMap } from './modules/variant-classifications/variant-classifications.presenter.ts';
import { createVariantsService } from './modules/variants/variants.service.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { generateRequestId, redactUrl, RequestLog, requestContextPlugin } from './plugins/request-context.ts';
import { securityPlugin } from './plugins/security.ts';
import { webAppPlugin } from './plugins/web-app.ts';
import type { ObjectStorage } from './storage/object-storage.ts';
import { createStorage } from './storage/storage.factory.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    mailer: Mailer;
    tokens: TokenService;
    /** Live sessions kept in memory (PostgreSQL; null on PGlite), for tests of their revocation. */
    sessionCache: SessionCache | null;
    /** The case access cache (PostgreSQL; modules/cases/case-access-cache.ts), null on PGlite. */
    caseAccessCache: CaseAccessCache | null;
  }
}

/** Version of the server package, reported by /api/health. */
export const serverVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

export interface BuildAppOptions {
  config: Config;
  /** An open database; when omitted one is created from the config and closed with the app. */
  database?: Database;
  /** A mailer; when omitted one is created from the config. */
  mailer?: Mailer;
  /** Replacements for the case modules (engine, storage, job settings), for tests. */
  cases?: CaseModulesOverrides;
  /** GenomeTalks replacements (knowledge base, LLM environment and fetch), for tests. */
  chat?: Partial<Pick<ChatModuleOptions, 'env' | 'knowledge' | 'fetch' | 'warm'>>;
  /** Where the log lines go instead of stdout (tests that read the logs). */
  logStream?: { write(line: string): void };
}

export interface CaseModulesOverrides {
  /** Replaces the engine (tests of the job plumbing). */
  engine?: () => Promise<AnalysisEngine>;
  storage?: ObjectStorage;
  jobs?: Partial<JobsConfig>;
  /** Replaces where the terms of a case submitted without any come from (tests without a KB). */
  extractTerms?: (symptoms: string) => Promise<{ hpoTerms: string[]; excludedTerms: string[] }>;
  /** Replaces the KB's HPO ontology that checks a case's terms (tests without a KB). */
  ontology?: () => Promise<Ontology | null>;
  /** Replaces the check of the genome before queueing. */
  checkGenome?: GenomeCheck;
}

/** A hop count becomes proxy-addr's "trust the first n hops" function (Fastify's types omit numbers). */
function toFastifyTrustProxy(
  value: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: BuildAppOptions['logStream']): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(stream === undefined ? {} : { stream }),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.currentPassword',
        '*.refreshToken',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    // One line per request instead of Fastify's two (plugins/request-context.ts).
    logController: new RequestLog(),
    genReqId: generateRequestId,
    requestIdHeader: false,
    trustProxy: toFastifyTrustProxy(config.trustProxy),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ownsDatabase = options.database === undefined;
  const database = options.database ?? (await createDatabase(config, { logger: app.log }));
  if (database.kind === 'pglite') {
    // Bulk loads on the embedded database give way to requests in flight (db/bulk-copy.ts).
    app.addHook('onRequest', (_request, reply, done) => {
      interactiveRequests.inFlight++;
      // 'close' fires once, when the answer is sent or the client went away.
      reply.raw.once('close', () => interactiveRequests.inFlight--);
      done();
    });
  }
  const mailer = options.mailer ?? createMailer(config, app.log);
  const tokens = createTokenService(config);
  app.decorate('config', config);
  app.decorate('database', { getter: () => database });
  app.decorate('mailer', mailer);
  app.decorate('tokens', tokens);
  app.addHook('onClose', async () => {
    if (options.mailer === undefined) mailer.close();
    if (ownsDatabase) await database.close();
  });

  await app.register(errorHandlerPlugin);
  await registerOpenApi(app, serverVersion);
  await app.register(requestContextPlugin);
  await app.register(securityPlugin, { isProduction: config.nodeEnv === 'production', nodeEnv: config.nodeEnv, publicUrl: config.publicUrl });
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(429, ErrorCode.rateLimited, Messages.tooManyRequests),
  });

  const cookies = createSessionCookies(config);
  const activityService = createActivityService({ database });
  // Several API processes may share the database: the session cache hears revocations through LISTEN (PostgreSQL only).
  // Likewise the case access cache hears changes of cases, shares and runs. Both listen on the
  // process's one LISTEN connection (Database.listener), with the job wake-up.
  const listener = database.kind === 'postgres' ? database.listener : undefined;
  const sessions = listener && createSessionCache({ listener });
  const caseAccessCache = listener && createCaseAccessCache({ listener });
  if (listener && sessions && caseAccessCache) {
    app.addHook('onClose', () => Promise.all([sessions.close(), caseAccessCache.close()]).then(() => undefined));
    // A state-changing request (logout, password change, account changes, a revoked share, a
    // deleted case...) is answered once this process's caches heard what it committed.
    app.addHook('onSend', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') await listener.sync();
    });
  }
  app.decorate('sessionCache', sessions ?? null);
  app.decorate('caseAccessCache', caseAccessCache ?? null);
  const authService = createAuthService({ database, tokens, mailer, config, activity: activityService, sessions });
  await app.register(authPlugin, { authService, cookies });
  scheduleAuthHousekeeping(app);

  await app.register(healthRoutes, { prefix: '/api/health', database, version: serverVersion });
  await app.register(authRoutes, {
    prefix: '/api/auth',
    authService,
    cookies,
    rateLimitPerMinute: config.authRateLimitPerMinute,
  });
  const overrides = options.cases ?? {};
  const storage = overrides.storage ?? createStorage({ dataDir: config.dataDir, s3Endpoint: process.env.S3_ENDPOINT });
  await app.register(accountRoutes, {
    prefix: '/api/account',
    accountService: createAccountService({ database, activity: activityService, storage, publicUrl: config.publicUrl }),
    cookies,
  });
  await app.register(activityRoutes, { prefix: '/api/account/activity', activityService });
  const forwardToInbox = createInboxForwarder({ database, mailer, mailFrom: config.mailFrom });
  const demoRequestsService = createDemoRequestsService({ forwardToInbox });
  const contactService = createContactService({ forwardToInbox });
  await app.register(demoRequestsRoutes, {
    prefix: '/api/demo-requests',
    submit: (body) => demoRequestsService.submit(body),
    rateLimitPerMinute: config.authRateLimitPerMinute,
  });
  await app.register(contactRoutes, {
    prefix: '/api/contact',
    submit: (body) => contactService.submit(body),
    rateLimitPerMinute: config.authRateLimitPerMinute,
  });

  // Cases and their resources (public paths /api/products/..., docs/ARCHITECTURE.md).
  const kb = createKnowledgeBase(config.kbDir);
  const ontology = overrides.ontology ?? (async () => (await kb.hpo())?.ontology ?? null);
  const jobsConfig = { ...loadJobsConfig(process.env, database.kind), ...overrides.jobs };
  const analysis = analysisEngineOf(config, kb, jobsConfig.inProcessWorker && overrides.engine === undefined);
  const jobs = createJobsModule(
    { database, store: createCaseAnalysisStore(database), storage, engine: overrides.engine ?? analysis.engine, maxRecords: config.maxRecords, reads: rawDataDepsOf(config) },
    jobsConfig,
    app.log,
  );
  // PhenomeAI and the HPO search read text: the KB's HPO with the synonyms of its release.
  const kbTextOntology = textOntologyLoader(
    async () => (await kb.hpo())?.ontology ?? null,
    config.sourcesDir ?? defaultSourcesDir(),
    (message) => app.log.warn(message),
  );
  const textOntology = overrides.ontology ?? kbTextOntology;
  const phenome = createPhenomeService({ ontology: textOntology });
  const access = createCaseAccess(database.db, caseAccessCache);
  const variantsService = createVariantsService({ database, access, reviews: createReviewLookup(database), presentReviews: presentClassificationMap });
  const phenotypesService = createPhenotypesService({
    database,
    access,
    variants: variantsService,
    proteinIds: proteinIdsLoader(config.kbDir, config.sourcesDir ?? defaultSourcesDir(), (message) => app.log.warn(message)),
  });
  const sharingService = createSharingService({
    database,
    access,
    tokens,
    mailer,
    activity: activityService,
    phenotypes: phenotypesService,
    ontology,
    config,
  });
  // Plans limit uploads when RARELENS_BILLING is on (issue 18 item 2).
  const ordersService = createOrdersServiceFor({ config, database, mailer });
  const casesService = createCasesService({
    database,
    storage,
    access,
    jobs: jobs.port,
    shareEmails: sharingService.emailsOf,
    activity: activityService,
    logger: app.log,
    uploadMaxBytes: config.uploadMaxBytes,
    maxActiveAnalyses: config.maxActiveAnalyses,
    ontology,
    // Offline PhenomeAI, shipped configuration (createPhenome defaults), on the KB's HPO.
    extractTerms: overrides.extractTerms ?? ((symptoms) => caseTermsFromText(phenome, symptoms)),
    checkGenome: overrides.checkGenome ?? createGenomeCheck(genomeCheckSources(kb)),
    billing: ordersService,
  });
  const products = '/api/products';
  await app.register(casesRoutes, {
    prefix: products,
    casesService,
    uploadMaxBytes: config.uploadMaxBytes,
    uploadPace: config.uploadPace,
  });
  await app.register(phenotypesRoutes(phenotypesService), { prefix: products });
  await app.register(genesRoutes(createGenesService({ database, access, variants: variantsService })), { prefix: products });
  await app.register(variantsRoutes(variantsService), { prefix: products });
  await app.register(variantClassificationsRoutes, {
    prefix: products,
    classificationsService: createVariantClassificationsService({ database, access, storedVariant: variantsService.stored }),
  });
  await app.register(familyRoutes, { prefix: products, familyService: createFamilyService({ access }) });
  await app.register(sharingRoutes, { prefix: products, sharingService });
  await app.register(shareSettingsRoutes, { prefix: '/api/shares', sharingService });
  await app.register(sharedLinkRoutes, { prefix: '/api/shared', sharingService, rateLimitPerMinute: config.authRateLimitPerMinute });
  const readsDeps = rawDataDepsOf(config);
  const rawDataService = createRawDataService({
    database,
    storage,
    access,
    reference: async () => {
      const ref = readsDeps.reference();
      const built = await builtReference(ref, readsDeps.cacheDir);
      return built && { ...built, label: ref.label };
    },
  });
  await app.register(rawDataRoutes, { prefix: products, rawDataService });
  await app.register(readsReferenceRoutes, { prefix: '/api/raw-data', reference: () => describeReference(readsDeps.reference) });
  await app.register(igvRoutes, { prefix: products, igvService: createIgvService({ database, access, sources: kb.tracks }) });
  await app.register(reportsRoutes, {
    prefix: products,
    reportsService: createReportsService({ database, storage, access, variants: variantsService, kb, activity: activityService, rawData: (runId) => rawDataService.forReport(runId) }),
  });
  await app.register(hpoRoutes, { prefix: '/api/hpo', ontology: kbTextOntology });
  // /api/phenome reads the real HPO even where tests replace the case-check ontology.
  await registerPhenomeModule(app, { config, ontology: kbTextOntology });
  // Every API process starts pg-boss (schema, queues) before serving, so enqueueing inside a
  // transaction never waits on it; in embedded mode it also runs the worker.
  app.addHook('onReady', async () => {
    await jobs.queue.start();
    if (jobs.inProcessWorker) {
      await jobs.queue.work();
      app.log.info({ workerId: jobs.queue.workerId }, 'in-process analysis worker started');
    }
  });
  app.addHook('onClose', async () => {
    await jobs.queue.stop();
    await analysis.close();
  });
  await registerChatModule(app, { config, database, access, hpo: () => kb.hpo(), ...options.chat });
  await registerOrdersModule(app, { ordersService });

  await app.register(webAppPlugin, { distDir: config.webDistDir });
  return app;
}

/**
 * The engine of this process's jobs. An in-process worker (the embedded default) runs annotation
 * and ranking on a thread of their own (RARELENS_ANALYSIS_THREAD, default on), so the API stays
 * responsive while a genome is analysed; the thread is stopped with the app.
 */
function analysisEngineOf(config: Config, kb: KnowledgeBase, inProcessWorker: boolean): { engine: () => Promise<AnalysisEngine>; close(): Promise<void> } {
  const acmg = { clinvarCriteria: config.acmgClinvarCriteria };
  if (!inProcessWorker || !config.analysisThread) return { engine: createEngineAnalysis(kb, acmg), close: () => Promise.resolve() };
  return createThreadedEngine({ kbDir: config.kbDir, acmg, memoryMb: config.analysisMemoryMb });
}
