import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../scripts/s3rver.mjs');

/** s3rver's fixed credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3rverProcess {
  endpoint: string;
  directory: string;
  bucket: string;
  child: ChildProcess;
  /** Every file the server holds (objects, metadata, multipart parts), relative to its directory. */
  files(): Promise<string[]>;
  stop(): Promise<void>;
}

/** Starts `scripts/s3rver.mjs` as a separate process on a free port with one bucket. */
export async function startS3rver(bucket = 'rl-bucket', directory?: string): Promise<S3rverProcess> {
  const dir = directory ?? (await mkdtemp(join(tmpdir(), 'rl-s3rver-')));
  const child = spawn(process.execPath, [SCRIPT, dir, '0', bucket], { stdio: ['ignore', 'pipe', 'inherit'] });
  const endpoint = await new Promise<string>((ok, fail) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => ok((JSON.parse(line) as { endpoint: string }).endpoint));
    child.once('exit', (code) => fail(new Error(`s3rver exited with ${code} before listening`)));
  });
  const files = async (): Promise<string[]> => {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)))
      .sort();
  };
  const stop = async (): Promise<void> => {
    if (child.exitCode == null && child.signalCode == null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    if (!directory) await rm(dir, { recursive: true, force: true });
  };
  return { endpoint, directory: dir, bucket, child, files, stop };
}
