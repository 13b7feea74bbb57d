/**
 * Where a command writes its output file. A new path or a regular file is written beside it as
 * `<out>.tmp-<pid>` and renamed over it only once complete, so a failed run leaves neither a
 * half-written file nor a changed old one. An existing file that is not a regular file
 * (/dev/null, /dev/stdout, a named pipe) is written in place: renaming over it would replace the
 * device or pipe with a regular file (as root, `--out /dev/null` did exactly that).
 */
import { rename, rm, stat } from 'node:fs/promises';
import { UsageError } from './args.ts';

export interface OutputTarget {
  /** The path to open for writing. */
  readonly path: string;
  /** Makes the written output the result (rename over `out`; nothing for a device or pipe). */
  commit(): Promise<void>;
  /** Removes what a failed run wrote (the temporary file; nothing for a device or pipe). */
  discard(): Promise<void>;
}

export async function outputTarget(out: string): Promise<OutputTarget> {
  const st = await stat(out).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (st?.isDirectory()) throw new UsageError(`--out ${out} is a directory; give a file path`);
  if (st && !st.isFile()) return { path: out, commit: async () => {}, discard: async () => {} };
  const tmp = `${out}.tmp-${process.pid}`;
  return {
    path: tmp,
    commit: () => rename(tmp, out),
    discard: () => rm(tmp, { force: true }),
  };
}
