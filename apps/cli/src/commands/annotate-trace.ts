/**
 * RARELENS_ANNOTATE_TRACE=1: `rarelens annotate` prints to stderr when each phase of each thread
 * ends (ms since the process started: performance.timeOrigin of the main thread) with the
 * thread's own CPU time then, and before it exits the CPU time of every thread of the process
 * (the workers' JS threads, V8's compiler and GC threads, libuv's file threads): for measuring
 * where the whole command's time goes. Linux (/proc); elsewhere the CPU figures are -1.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export const TRACE = process.env.RARELENS_ANNOTATE_TRACE === '1';

/** utime and stime (ms) of a /proc stat file (fields 14 and 15, in USER_HZ = 100 ticks a second). */
function cpuOf(statPath: string): { user: number; sys: number } {
  try {
    const stat = readFileSync(statPath, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(f[11]) * 10, sys: Number(f[12]) * 10 };
  } catch {
    return { user: -1, sys: 0 };
  }
}

/** Prints `label` with the time since `origin` (ms, as performance.timeOrigin) and this thread's CPU. */
export function trace(origin: number, thread: string, label: string): void {
  if (!TRACE) return;
  const t = performance.timeOrigin + performance.now() - origin;
  const c = cpuOf('/proc/thread-self/stat');
  if (label === 'started') thread += ` (tid ${readlinkSync('/proc/thread-self').split('/').pop()})`;
  process.stderr.write(`trace ${thread.padEnd(9)} ${label.padEnd(24)} t=${t.toFixed(0).padStart(6)} ms  thread cpu=${c.user + c.sys} ms\n`);
}

/** Prints the CPU time of every thread of the process, most first. */
export function traceThreads(): void {
  if (!TRACE) return;
  const rows = readdirSync('/proc/self/task').map((tid) => ({ tid, ...cpuOf(`/proc/self/task/${tid}/stat`) }));
  rows.sort((a, b) => b.user + b.sys - a.user - a.sys);
  for (const r of rows) process.stderr.write(`thread ${r.tid.padStart(7)}${Number(r.tid) === process.pid ? ' (main)' : '       '} user=${r.user} ms sys=${r.sys} ms\n`);
}
