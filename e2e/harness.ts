/**
 * Browser test harness: starts an SMTP catcher and the real server (on the test database
 * created by scripts/test-database.setup.ts), then drives Debian Chromium through
 * playwright-core. It builds nothing: apps/web/dist must exist (the test runner builds it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../apps/server/src/testing/free-port.ts';
import { startSmtpInbox, type SmtpInbox } from './mail-catcher.ts';

export { extractCode, extractLink, type CaughtMail } from './mail-catcher.ts';
export { freePort };

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Chromium flags for a quiet, offline-friendly headless run (CONVENTIONS §8). */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function waitForHealth(baseUrl: string, server: ChildProcess, logs: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}:\n${logs()}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not answer /api/health within ${timeoutMs} ms:\n${logs()}`);
}

export type TestEnv = {
  baseUrl: string;
  databaseUrl: string;
  /** The server's data directory (its generated secrets, for operator commands run beside it). */
  dataDir: string;
  /** Where the server sends mail (the catcher). */
  smtpUrl: string;
  mail: SmtpInbox;
  browser: Browser;
  /**
   * A fresh browser context (own cookies) and page; closed by stop(). `errors` collects the
   * page's uncaught exceptions, for tests to assert that none happened.
   */
  newPage: (options?: { width?: number; height?: number }) => Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  /** Runs SQL on the server's database. */
  sql: <R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;
  /** The server's output so far (for failure messages). */
  serverLogs: () => string;
  stop: () => Promise<void>;
};

export type StartOptions = {
  /** Extra environment for the server (e.g. ACCESS_TOKEN_TTL_SECONDS). */
  env?: Record<string, string>;
  startupTimeoutMs?: number;
};

/** Starts mail catcher, server and browser; call `stop()` in afterAll. */
export async function startTestEnv(options: StartOptions = {}): Promise<TestEnv> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run browser tests through `npx vitest run --project e2e`');
  const distIndex = path.join(repoRoot, 'apps/web/dist/index.html');
  if (!existsSync(distIndex)) throw new Error(`${distIndex} is missing: build the web app first (npm run build:web)`);

  const mail = await startSmtpInbox();
  const smtpPort = mail.port;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'rarelens-e2e-'));

  let output = '';
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATABASE_URL: databaseUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      RARELENS_DATA_DIR: dataDir,
      // The knowledge base is shared by all runs (the test runner builds it once); without
      // this every fresh data directory would rebuild it on the server's first start.
      RARELENS_KB: process.env.RARELENS_KB ?? path.join(repoRoot, 'data/kb'),
      NODE_ENV: 'test',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  server.stdout?.on('data', append);
  server.stderr?.on('data', append);
  const serverLogs = () => output;

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const contexts: BrowserContext[] = [];
  let browser: Browser | undefined;

  const stop = async () => {
    await Promise.allSettled(contexts.map((c) => c.close()));
    await browser?.close().catch(() => undefined);
    if (server.exitCode === null) {
      const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
      server.kill('SIGTERM');
      const timeout = setTimeout(() => server.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timeout);
    }
    await pool.end().catch(() => undefined);
    await mail.close();
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, server, serverLogs, options.startupTimeoutMs ?? 60_000);
    // The server looks for the build once, at start: a build running at that moment (it empties
    // dist first) leaves it API-only, and every page test would time out for no visible reason.
    const home = await fetch(baseUrl + '/');
    if (!(home.headers.get('content-type') ?? '').includes('text/html')) {
      throw new Error(`The server does not serve the web app (GET / → ${home.status}); was apps/web/dist rebuilt while it started?`);
    }
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
  } catch (error) {
    await stop();
    throw error;
  }
  const launched = browser;

  return {
    baseUrl,
    databaseUrl,
    dataDir,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    mail,
    browser: launched,
    async newPage({ width = 1280, height = 860 } = {}) {
      const context = await launched.newContext({ baseURL: baseUrl, viewport: { width, height } });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      return { context, page, errors };
    },
    async sql<R extends pg.QueryResultRow>(text: string, values?: unknown[]) {
      const result = await pool.query<R>(text, values);
      return result.rows;
    },
    serverLogs,
    stop,
  };
}

/** Starts an environment before the file's tests (handing it to `ready`) and stops it after them. */
export function useTestEnv(start: () => Promise<TestEnv>, ready: (env: TestEnv) => void | Promise<void>): void {
  let env: TestEnv | undefined;
  beforeAll(async () => {
    env = await start();
    await ready(env);
  });
  afterAll(async () => {
    await env?.stop();
  });
}

/** A unique address per test run, so tests never collide on the shared database. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.org`;
}

/** Fills the /register form (the page must be on /register); the caller submits it. */
export async function fillRegistration(
  page: Page,
  email: string,
  password: string,
  person: { name: string; surname: string; birthDate: string } = { name: 'Rosalind', surname: 'Franklin', birthDate: '1985-07-25' },
): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill(person.name);
  await page.getByLabel('Surname').fill(person.surname);
  await page.getByLabel('Date of birth').fill(person.birthDate);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('checkbox', { name: /accept the Terms/ }).click();
}

/** Fills the login form on the current page and submits it; the caller waits for the outcome. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Where screenshots go (git-ignored); set E2E_SCREENSHOTS to keep them elsewhere. */
export function screenshotPath(name: string): string {
  const dir = process.env.E2E_SCREENSHOTS ?? path.join(tmpdir(), 'rarelens-e2e-screenshots');
  return path.join(dir, `${name}.png`);
}
