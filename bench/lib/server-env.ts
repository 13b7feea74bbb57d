/**
 * The server environment the benchmarks run the product with: production mode, quiet logs, no
 * web build, the benchmark's own SMTP inbox, and no per-IP sign-in limit (every client of a
 * benchmark is 127.0.0.1). `extra` adds or overrides variables (a process's own data directory).
 */
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
    LOG_LEVEL: 'warn',
    RARELENS_DATA_DIR: s.dataDir,
    RARELENS_KB: s.kbDir,
    RARELENS_WEB_DIST: join(s.dataDir, 'no-web'),
    DATABASE_URL: s.databaseUrl,
    SMTP_URL: s.smtpUrl,
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    ...extra,
  };
}
