import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Command } from '@rarelens/engine';
import { feed, runPipe, ToolError } from './processes.ts';

const has = (tool: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};
async function* lines(texts: string[], error?: Error): AsyncGenerator<string> {
  for (const t of texts) yield await Promise.resolve(t);
  if (error) throw error;
}
const cmd = (program: string, args: string[]) => ({ program, args }) as unknown as Command;

describe.skipIf(!has('samtools'))('tool pipes', () => {
  it("fails with the tool's own message line when a member exits non-zero", async () => {
    const e = await runPipe([cmd('samtools', ['view', '/nonexistent/reads.bam'])], { signal: new AbortController().signal }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).message).toMatch(/^samtools failed: .*\/nonexistent\/reads\.bam/);
  });

  it('names the failing member of a pipe, not the one that lost its reader', async () => {
    const e = await runPipe([cmd('cat', ['/dev/zero']), cmd('samtools', ['view', '-'])], { signal: new AbortController().signal }).catch((x: unknown) => x);
    expect((e as ToolError).program).toBe('samtools');
  });

  it('reports a program that is not installed', async () => {
    const e = await runPipe([cmd('no-such-aligner-xyz', [])], { signal: new AbortController().signal }).catch((x: unknown) => x);
    expect((e as ToolError).message).toBe('no-such-aligner-xyz failed: no-such-aligner-xyz is not installed (not found on PATH)');
  });

  it('feeds stdin, captures stdout, and gives the feeder error (bad input) priority', async () => {
    const out = await runPipe([cmd('cat', []), cmd('wc', ['-l'])], {
      signal: new AbortController().signal,
      captureStdout: true,
      stdin: (sink) => feed(sink, lines(['a\nb\nc\n'])),
    });
    expect(out.trim()).toBe('3');
    const bad = new Error('reads.fq: record 2 (line 5): truncated');
    const e = await runPipe([cmd('cat', [])], {
      signal: new AbortController().signal,
      stdin: (sink) => feed(sink, lines(['x\n'], bad)),
    }).catch((x: unknown) => x);
    expect(e).toBe(bad);
  });

  it('kills the pipe when aborted (cancel) and never hangs', async () => {
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(new Error('cancelled')), 100);
    const e = await runPipe([cmd('sleep', ['30'])], { signal: ac.signal }).catch((x: unknown) => x);
    expect((e as Error).message).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
