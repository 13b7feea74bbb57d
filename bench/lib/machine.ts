/** Machine description printed by every benchmark (CPU model, cores, memory, OS, Node, load). */

import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  load1m: number;
}

export function machineInfo(): MachineInfo {
  const c = cpus();
  return {
    cpu: c[0]?.model.trim() ?? 'unknown CPU',
    cores: c.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    load1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

/** One line: "AMD EPYC (2 cores), 23.4 GiB RAM, Linux 6.1, Node v20.20.2, load 0.50". */
export function formatMachine(m: MachineInfo = machineInfo()): string {
  return `${m.cpu} (${m.cores} cores), ${m.memoryGiB} GiB RAM, ${m.os}, Node ${m.node}, load(1m) ${m.load1m}`;
}

/** Version string of an external tool (first line of `tool --version`), or null when absent. */
export function toolVersion(tool: string): string | null {
  try {
    return execFileSync(tool, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0] ?? null;
  } catch {
    return null;
  }
}

/** The commit the benchmark runs ("abc1234", "+ uncommitted changes" when the tree differs from it). */
export function currentCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
