import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, ENV_VARIABLES, loadConfig } from './env.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'rarelens-env-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const secret = 's'.repeat(32);

describe('loadConfig', () => {
  it('applies the embedded defaults', () => {
    const config = loadConfig({ RARELENS_DATA_DIR: dataDir });
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      pgliteDir: path.join(dataDir, 'pglite'),
      kbDir: path.join(dataDir, 'kb'),
      smtpUrl: undefined,
      mailDir: path.join(dataDir, 'mail'),
      mailFrom: 'RareLens <no-reply@rarelens.local>',
      publicUrl: 'http://localhost:3000',
      accessTokenTtlSeconds: 1800,
      refreshTokenTtlDays: 7,
      authRateLimitPerMinute: 20,
      uploadMaxBytes: 5 * 1024 ** 3,
      logLevel: 'info',
    });
  });

  it('resolves the data directory and derives PUBLIC_URL from PORT', () => {
    const config = loadConfig({ RARELENS_DATA_DIR: dataDir, PORT: '8080', PUBLIC_URL: '' });
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(
      loadConfig({ RARELENS_DATA_DIR: dataDir, PUBLIC_URL: 'https://rarelens.example/' }).publicUrl,
    ).toBe('https://rarelens.example');
  });

  it('generates secrets once, keeps them in secrets.json with mode 0600, and reuses them', () => {
    const first = loadConfig({ RARELENS_DATA_DIR: dataDir });
    const file = path.join(dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.jwtSecret).not.toBe(first.tokenHashSecret);
    const second = loadConfig({ RARELENS_DATA_DIR: dataDir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      jwtSecret: first.jwtSecret,
      tokenHashSecret: first.tokenHashSecret,
    });
  });

  it('uses secrets from the environment without writing a file', () => {
    const config = loadConfig({
      RARELENS_DATA_DIR: dataDir,
      JWT_SECRET: secret,
      TOKEN_HASH_SECRET: `${secret}x`,
    });
    expect(config.jwtSecret).toBe(secret);
    expect(() => statSync(path.join(dataDir, 'secrets.json'))).toThrow();
  });

  it('lists every problem of a bad environment', () => {
    let error: unknown;
    try {
      loadConfig({
        RARELENS_DATA_DIR: dataDir,
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SMTP_URL: 'http://mail',
        JWT_SECRET: 'short',
        NODE_ENV: 'staging',
        PUBLIC_URL: 'not a url',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'SMTP_URL',
      'JWT_SECRET',
      'NODE_ENV',
      'PUBLIC_URL',
    ]) {
      expect(problems).toContain(name);
    }
    expect((error as ConfigError).problems.length).toBeGreaterThanOrEqual(6);
  });

  it('parses TRUST_PROXY as off, on, a hop count or an address list', () => {
    const trust = (v?: string) =>
      loadConfig({ RARELENS_DATA_DIR: dataDir, ...(v === undefined ? {} : { TRUST_PROXY: v }) })
        .trustProxy;
    expect(trust()).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 192.168.0.0/16')).toEqual(['10.0.0.1', '192.168.0.0/16']);
  });

  it('refuses a corrupt secrets file with a message naming it', () => {
    writeFileSync(path.join(dataDir, 'secrets.json'), '{"jwtSecret":"x"}');
    expect(() => loadConfig({ RARELENS_DATA_DIR: dataDir })).toThrow(/secrets\.json/);
  });
});

describe('the README configuration table', () => {
  it('documents every environment variable the server reads', () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8');
    const rows = new Set([...readme.matchAll(/^\|([^|\n]+)\|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((v) => v[1]!)));
    expect(ENV_VARIABLES.length).toBeGreaterThan(30);
    expect(ENV_VARIABLES.filter((name) => !rows.has(name))).toEqual([]);
  });
});
