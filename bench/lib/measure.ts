/**
 * Run a command in a child process under /usr/bin/time and return its wall time, peak RSS
 * and stdout. Peak RSS is the child's own maximum resident set (GNU time %M, KiB).
 */

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Measurement {
  wallSeconds: number;
  /** User + system CPU seconds of the child (all its threads): steadier than wall time on a busy machine. */
  cpuSeconds: number;
  maxRssMiB: number;
  stdout: string;
  exitCode: number;
}

const TIME = '/usr/bin/time';

export function hasGnuTime(): boolean {
  return existsSync(TIME);
}

/** Run `cmd args` (stdout captured unless `stdoutTo` is given) and measure it. */
export function measure(cmd: string, args: readonly string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Measurement> {
  return new Promise((resolvePromise, reject) => {
    const marker = '@@RARELENS_TIME@@';
    const child = spawn(TIME, ['-f', `${marker} %e %M %U %S`, cmd, ...args], {
      env: opts.env ?? process.env,
      cwd: opts.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = err.split('\n').find((l) => l.startsWith(marker));
      if (line === undefined) {
        reject(new Error(`${cmd} produced no timing (exit ${code}): ${err.slice(-500)}`));
        return;
      }
      const [, wall, rss, user, sys] = line.split(' ');
      const exitCode = code ?? -1;
      if (exitCode !== 0) {
        reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${exitCode}): ${err.replace(line, '').slice(-800)}`));
        return;
      }
      resolvePromise({ wallSeconds: Number(wall), cpuSeconds: Number(user) + Number(sys), maxRssMiB: Number(rss) / 1024, stdout: out, exitCode });
    });
  });
}
