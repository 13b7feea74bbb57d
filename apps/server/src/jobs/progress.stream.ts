import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';

/**
 * Opens a file as a stream that reports the fraction of its bytes read so far (for gzip and
 * bgzip inputs this is the compressed fraction, close enough for a progress bar).
 */
export async function openWithProgress(path: string, onProgress: (fraction: number) => void): Promise<Readable> {
  const size = (await stat(path)).size;
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      read += chunk.length;
      onProgress(size > 0 ? Math.min(1, read / size) : 1);
      cb(null, chunk);
    },
  });
  const source = createReadStream(path, { highWaterMark: 1024 * 1024 });
  source.on('error', (e) => counter.destroy(e));
  return source.pipe(counter);
}
