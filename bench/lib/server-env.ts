/**
 * The server environment the benchmarks run the product with: production mode, the product's
 * default log level (info: one line per request, which a benchmark pays for like production
 * does; `serverLogFile` sends it to a file rather than the benchmark's output), no web build, the
 * benchmark's own SMTP inbox, and no per-IP sign-in limit (every client of a benchmark is
 * 127.0.0.1). `extra` adds or overrides variables (a process's own data directory).
 */
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchServer {
  /** Scratch directory: the data directory unless `extra` overrides it; the missing web build lives below it. */
  dataDir: string;
  kbDir: string;
  databaseUrl: string;
  smtpUrl: string;
}

export function benchServerEnv(s: BenchServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    RARELENS_DATA_DIR: s.dataDir,
    RARELENS_KB: s.kbDir,
    RARELENS_WEB_DIST: join(s.dataDir, 'no-web'),
    DATABASE_URL: s.databaseUrl,
    SMTP_URL: s.smtpUrl,
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    ...extra,
  };
}

/** A server process's stdout: its log file, opened for appending (spawn's stdio takes the descriptor). */
export function serverLogFile(path: string): number {
  return openSync(path, 'a');
}

/** The request lines of a server's log file (one per request answered). */
export function requestLogLines(path: string): number {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line.includes('"msg":"request completed"')).length;
}
