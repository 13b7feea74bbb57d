import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledCommand } from '../bin/compiled.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A CLI directory with one source file and a bundle of `annotate` built at `builtAt` (s). */
function cliDir(sourceAt: number, builtAt: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rarelens-cli-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'src'));
  mkdirSync(path.join(dir, 'dist'));
  writeFileSync(path.join(dir, 'src/annotate.ts'), 'export {};');
  writeFileSync(path.join(dir, 'dist/annotate.mjs'), 'export {};');
  writeFileSync(path.join(dir, 'dist/inputs.json'), JSON.stringify({ commands: ['annotate'], inputs: ['src/annotate.ts'] }));
  utimesSync(path.join(dir, 'src/annotate.ts'), sourceAt, sourceAt);
  utimesSync(path.join(dir, 'dist/annotate.mjs'), builtAt, builtAt);
  return dir;
}

const check = compiledCommand;

describe('compiledCommand', () => {
  it('runs a bundle newer than its sources', () => {
    const dir = cliDir(1_000_000, 2_000_000);
    expect(check('annotate', dir)).toBe(path.join(dir, 'dist/annotate.mjs'));
  });

  it('falls back to the sources when one was edited after the build, the command is not compiled, or nothing was built', () => {
    expect(check('annotate', cliDir(2_000_000, 1_000_000))).toBeNull();
    expect(check('analyze', cliDir(1_000_000, 2_000_000))).toBeNull();
    expect(check(undefined, cliDir(1_000_000, 2_000_000))).toBeNull();
    const dir = cliDir(1_000_000, 2_000_000);
    rmSync(path.join(dir, 'src/annotate.ts'));
    expect(check('annotate', dir)).toBeNull();
    expect(check('annotate', path.join(dir, 'nowhere'))).toBeNull();
  });
});
