/**
 * Runs the field's tools as child processes: a pipe of commands (stdout -> stdin, no shell),
 * optionally fed from a Node stream, killed on abort. A command that exits non-zero (or dies
 * on a signal) fails the whole pipe with a ToolError carrying the tool's own message line;
 * a pipe never hangs on a dead member (its neighbours get EPIPE / EOF and the others are killed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { toolErrorLine, type Command } from '@rarelens/engine';

/** A tool failed: `line` is its own message (last error line of its stderr). */
export class ToolError extends Error {
  constructor(
    readonly program: string,
    readonly line: string,
    readonly exitCode: number | null,
  ) {
    super(`${program} failed: ${line}`);
    this.name = 'ToolError';
  }
}

/** stderr kept per process: enough for the error line, bounded for chatty tools. */
const STDERR_KEEP = 16 * 1024;

export interface RunPipeOptions {
  signal: AbortSignal;
  /** Fed to the first command's stdin (its errors fail the pipe too). */
  stdin?: (sink: Writable) => Promise<void>;
  /** Receives each stderr chunk of every command (progress parsing). */
  onStderr?: (program: string, text: string) => void;
  /** Captures the last command's stdout (reports such as flagstat); otherwise discarded. */
  captureStdout?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Runs one pipe; resolves with the last command's stdout when captured. */
export async function runPipe(pipe: Command[], options: RunPipeOptions): Promise<string> {
  options.signal.throwIfAborted();
  const children: ChildProcess[] = [];
  const stderr: string[] = [];
  let stdout = '';
  const done: Promise<void>[] = [];
  // Failures by priority: the feeder's own error (bad input), then a tool that exited non-zero,
  // then members that died of a broken pipe or were killed after another failed.
  const failures: { rank: number; error: Error }[] = [];
  const fail = (rank: number, error: Error) => {
    failures.push({ rank, error });
    killAll();
  };
  const killAll = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };
  const onAbort = () => killAll();
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    pipe.forEach((cmd, i) => {
      const child = spawn(cmd.program, cmd.args, {
        stdio: [i === 0 ? (options.stdin ? 'pipe' : 'ignore') : 'pipe', 'pipe', 'pipe'],
        env: options.env ?? process.env,
      });
      children.push(child);
      stderr.push('');
      const prev = children[i - 1];
      if (prev) {
        prev.stdout!.pipe(child.stdin!);
        // A reader that died closes our pipe: the writer's EPIPE is reported by the exit codes.
        child.stdin!.on('error', () => undefined);
      }
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (t: string) => {
        const kept = stderr[i]! + t;
        stderr[i] = kept.length > STDERR_KEEP ? kept.slice(-STDERR_KEEP) : kept;
        options.onStderr?.(cmd.program, t);
      });
      if (i === pipe.length - 1) {
        if (options.captureStdout) {
          child.stdout!.setEncoding('utf8');
          child.stdout!.on('data', (t: string) => (stdout += t));
        } else child.stdout!.resume();
      }
      done.push(
        new Promise<void>((resolve) => {
          child.once('error', (e: NodeJS.ErrnoException) => {
            const line = e.code === 'ENOENT' ? `${cmd.program} is not installed (not found on PATH)` : e.message;
            fail(1, new ToolError(cmd.program, line, null));
            resolve();
          });
          child.once('close', (code, sig) => {
            if (code !== 0 && !options.signal.aborted) {
              const line = toolErrorLine(stderr[i]!) ?? (sig ? `killed by ${sig}` : `exit code ${code}`);
              fail(sig === null ? 1 : 2, new ToolError(cmd.program, line, code));
            }
            resolve();
          });
        }),
      );
    });
    if (options.stdin) {
      const sink = children[0]!.stdin!;
      sink.on('error', () => undefined);
      done.push(
        options.stdin(sink).then(
          () => new Promise<void>((resolve) => sink.end(resolve)),
          (e: unknown) => {
            const broken = (e as NodeJS.ErrnoException).code === 'EPIPE' || (e as NodeJS.ErrnoException).code === 'ERR_STREAM_DESTROYED';
            fail(broken ? 3 : 0, e as Error);
          },
        ),
      );
    }
    await Promise.all(done);
  } finally {
    options.signal.removeEventListener('abort', onAbort);
  }
  options.signal.throwIfAborted();
  failures.sort((a, b) => a.rank - b.rank);
  if (failures[0]) throw failures[0].error;
  return stdout;
}

/** Writes a stream of text records to a child's stdin, honouring back-pressure. */
export async function feed(sink: Writable, chunks: AsyncIterable<string>): Promise<void> {
  await pipeline(chunks as unknown as Readable, sink, { end: false });
}

/** The version line of a tool (e.g. "samtools 1.16.1", "bwa 0.7.17-r1188"). */
export async function toolVersion(program: 'bwa' | 'samtools' | 'bcftools' | 'minimap2', signal: AbortSignal): Promise<string> {
  if (program === 'bwa') {
    // bwa prints its usage (with "Version: ...") on stderr and exits 1 without arguments.
    let text = '';
    await runPipe([{ program: 'bwa', args: [] }], { signal, onStderr: (_p, t) => (text += t) }).catch(() => undefined);
    const v = /Version:\s*(\S+)/.exec(text)?.[1];
    return v ? `bwa ${v}` : 'bwa (version unknown)';
  }
  const out = await runPipe([{ program, args: ['--version'] } as Command], { signal, captureStdout: true });
  return out.split('\n')[0]?.trim() ?? program;
}
