/**
 * Server configuration, parsed once at boot from the environment (CONVENTIONS §3).
 * Every variable has a default that runs the app on the embedded database with mail written
 * to files, so `npm start` works on a fresh clone.
 */
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { PriceList } from '@rarelens/contract';
import { DEFAULT_PRICE_LIST, loadPriceList } from './modules/orders/orders.price-list.ts';

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** Optional string: an empty value counts as unset. */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? String(fallback) : v.trim()))
    .pipe(z.string().regex(/^\d+$/, 'must be a positive integer').transform(Number))
    .pipe(z.number().int().positive());

const secret = optionalString.pipe(
  z.string().min(32, 'must be at least 32 characters (or leave unset to generate one)').optional(),
);

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: positiveInt(3000).pipe(z.number().max(65535, 'must be at most 65535')),
  HOST: optionalString.transform((v) => v ?? '0.0.0.0'),
  LOG_LEVEL: optionalString.pipe(LogLevel.optional()),
  RARELENS_DATA_DIR: optionalString.transform((v) => v ?? './data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  RARELENS_SOURCES: optionalString,
  RARELENS_KB: optionalString,
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: optionalString.transform((v) => v ?? 'RareLens <no-reply@rarelens.local>'),
  PUBLIC_URL: optionalString.pipe(z.url('must be an absolute http(s) URL').optional()),
  JWT_SECRET: secret,
  TOKEN_HASH_SECRET: secret,
  ACCESS_TOKEN_TTL_SECONDS: positiveInt(30 * 60),
  REFRESH_TOKEN_TTL_DAYS: positiveInt(7),
  AUTH_RATE_LIMIT_PER_MINUTE: positiveInt(20),
  CHAT_RATE_LIMIT_PER_MINUTE: positiveInt(30),
  UPLOAD_MAX_BYTES: positiveInt(5 * 1024 ** 3),
  UPLOAD_PACE_WINDOW_SECONDS: positiveInt(30),
  UPLOAD_MIN_BYTES_PER_SECOND: positiveInt(1024),
  RARELENS_MAX_ACTIVE_ANALYSES: positiveInt(10),
  RARELENS_SHARE_LINK_DAYS: positiveInt(30),
  RARELENS_MAX_RECORDS: positiveInt(50_000_000),
  RARELENS_ANALYSIS_THREAD: optionalString.pipe(z.enum(['on', 'off'], { error: 'must be on or off' }).optional()),
  RARELENS_ANALYSIS_MEMORY_MB: positiveInt(8192),
  RARELENS_WEB_DIST: optionalString,
  TRUST_PROXY: optionalString,
  RARELENS_BILLING: optionalString.pipe(z.enum(['on', 'off'], { error: 'must be on or off' }).optional()),
  RARELENS_PRICE_LIST: optionalString,
  RARELENS_REFERENCE: optionalString,
  RARELENS_REFERENCE_ASSEMBLY: optionalString.pipe(z.enum(['GRCh37', 'GRCh38'], { error: 'must be GRCh37 or GRCh38' }).optional()),
  WORKER_THREADS: positiveInt(availableParallelism()),
  RARELENS_ACMG_CLINVAR_CRITERIA: optionalString.pipe(z.enum(['on', 'off'], { error: 'must be on or off' }).optional()),
});

/**
 * TRUST_PROXY: unset/false -> the socket address is the client; true -> trust every proxy;
 * a number -> that many hops; otherwise a comma-separated list of proxy addresses/CIDRs.
 */
function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Every environment variable the server reads (each has a row in the README's configuration table). */
export const ENV_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  logLevel: z.infer<typeof LogLevel>;
  /** Absolute path of the data directory (embedded database, mail, uploads, secrets). */
  dataDir: string;
  /** Real PostgreSQL when set; otherwise PGlite under `pgliteDir`. */
  databaseUrl: string | undefined;
  pgliteDir: string;
  /** Reference data directory (absolute), when configured. */
  sourcesDir: string | undefined;
  /** Knowledge-base directory (absolute). */
  kbDir: string;
  /** SMTP transport URL; when unset, messages are written as .eml files under `mailDir`. */
  smtpUrl: string | undefined;
  mailDir: string;
  mailFrom: string;
  /** Base URL used in e-mailed links, without a trailing slash. */
  publicUrl: string;
  jwtSecret: string;
  /** HMAC key for verification codes (six digits need a keyed hash to resist brute force). */
  tokenHashSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  authRateLimitPerMinute: number;
  /** GenomeTalks questions per user per minute. */
  chatRateLimitPerMinute: number;
  uploadMaxBytes: number;
  /** Slow uploads stopped: the slowest accepted average over one window (UploadPaceOptions). */
  uploadPace: { windowMs: number; minBytesPerSecond: number };
  /** Lifetime of an e-mailed share link (/shared/{token}), days. */
  shareLinkTtlDays: number;
  /** Cases of one user that may be queued or running at once (more uploads are refused with 429). */
  maxActiveAnalyses: number;
  /** Data records a genome may hold; a larger file ends in Error naming the limit. */
  maxRecords: number;
  /**
   * Annotation and ranking of the in-process worker and of `npm run worker` run on their own thread
   * (RARELENS_ANALYSIS_THREAD, default on), off the API's (or the worker's queue's) event loop, with a heap cap of analysisMemoryMb (RARELENS_ANALYSIS_MEMORY_MB).
   */
  analysisThread: boolean;
  analysisMemoryMb: number;
  /** Directory of the built web app (served with SPA fallback). */
  webDistDir: string;
  /** Fastify `trustProxy`: which X-Forwarded-For hops to believe (rate limits are per client IP). */
  trustProxy: boolean | number | string[];
  /** RARELENS_BILLING=on: uploads consume the active plan's cases (off by default: nothing is limited). */
  billing: boolean;
  /** Plans, add-ons and currency (RARELENS_PRICE_LIST file, else the documented defaults). */
  priceList: PriceList;
  /** FASTA reads are aligned to (absolute); unset = the demo reference under RARELENS_SOURCES. */
  reference: string | undefined;
  referenceAssembly: 'GRCh37' | 'GRCh38' | undefined;
  /** Threads of the raw data analysis tools (bwa, samtools, bcftools). */
  workerThreads: number;
  /**
   * RARELENS_ACMG_CLINVAR_CRITERIA=on: ClinVar's assertion becomes ACMG PP5/BP6 (Supporting). Off by
   * default: ClinGen SVI retired both (docs/acmg-clinvar.md); ClinVar is shown beside the class either way.
   */
  acmgClinvarCriteria: boolean;
}

/** Raised on invalid configuration; `problems` lists each variable and what is wrong. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

interface StoredSecrets {
  jwtSecret: string;
  tokenHashSecret: string;
}

const StoredSecretsSchema = z.object({
  jwtSecret: z.string().min(32),
  tokenHashSecret: z.string().min(32),
});

/**
 * Secrets not given in the environment are generated once and kept in
 * `<dataDir>/secrets.json` (mode 0600) so sessions survive restarts.
 */
function loadOrCreateSecrets(dataDir: string): StoredSecrets {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const parsed = StoredSecretsSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ConfigError([
        `${file}: not a valid secrets file (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}); delete it to generate new secrets`,
      ]);
    }
    return parsed.data;
  }
  const secrets: StoredSecrets = {
    jwtSecret: randomBytes(48).toString('base64url'),
    tokenHashSecret: randomBytes(48).toString('base64url'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secrets;
}

/**
 * Parses and validates the environment. Throws `ConfigError` listing every problem.
 * Relative paths are resolved against the current working directory.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`,
      ),
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.RARELENS_DATA_DIR);
  const needsStoredSecrets = e.JWT_SECRET === undefined || e.TOKEN_HASH_SECRET === undefined;
  const stored = needsStoredSecrets ? loadOrCreateSecrets(dataDir) : undefined;
  let priceList = DEFAULT_PRICE_LIST;
  if (e.RARELENS_PRICE_LIST !== undefined) {
    try {
      priceList = loadPriceList(path.resolve(e.RARELENS_PRICE_LIST));
    } catch (error) {
      throw new ConfigError([error instanceof Error ? error.message : String(error)]);
    }
  }
  const reference = e.RARELENS_REFERENCE === undefined ? undefined : path.resolve(e.RARELENS_REFERENCE);
  const referenceProblems: string[] = [];
  if (reference !== undefined) {
    try {
      accessSync(reference, constants.R_OK);
      if (!statSync(reference).isFile()) throw new Error('not a file');
    } catch (error) {
      referenceProblems.push(`RARELENS_REFERENCE: ${reference} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give the path of a FASTA (plain or bgzip)`);
    }
    if (e.RARELENS_REFERENCE_ASSEMBLY === undefined) referenceProblems.push('RARELENS_REFERENCE_ASSEMBLY: required with RARELENS_REFERENCE (GRCh37 or GRCh38)');
  }
  if (referenceProblems.length > 0) throw new ConfigError(referenceProblems);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'warn' : 'info'),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    pgliteDir: path.join(dataDir, 'pglite'),
    sourcesDir: e.RARELENS_SOURCES === undefined ? undefined : path.resolve(e.RARELENS_SOURCES),
    kbDir: path.resolve(e.RARELENS_KB ?? path.join(dataDir, 'kb')),
    smtpUrl: e.SMTP_URL,
    mailDir: path.join(dataDir, 'mail'),
    mailFrom: e.MAIL_FROM,
    publicUrl,
    jwtSecret: e.JWT_SECRET ?? stored!.jwtSecret,
    tokenHashSecret: e.TOKEN_HASH_SECRET ?? stored!.tokenHashSecret,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    chatRateLimitPerMinute: e.CHAT_RATE_LIMIT_PER_MINUTE,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadPace: { windowMs: e.UPLOAD_PACE_WINDOW_SECONDS * 1000, minBytesPerSecond: e.UPLOAD_MIN_BYTES_PER_SECOND },
    maxActiveAnalyses: e.RARELENS_MAX_ACTIVE_ANALYSES,
    shareLinkTtlDays: e.RARELENS_SHARE_LINK_DAYS,
    maxRecords: e.RARELENS_MAX_RECORDS,
    analysisThread: e.RARELENS_ANALYSIS_THREAD !== 'off',
    analysisMemoryMb: e.RARELENS_ANALYSIS_MEMORY_MB,
    webDistDir: path.resolve(e.RARELENS_WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    billing: e.RARELENS_BILLING === 'on',
    priceList,
    reference,
    referenceAssembly: e.RARELENS_REFERENCE_ASSEMBLY,
    workerThreads: e.WORKER_THREADS,
    acmgClinvarCriteria: e.RARELENS_ACMG_CLINVAR_CRITERIA === 'on',
  };
}
