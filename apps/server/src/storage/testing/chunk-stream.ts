import { Readable } from 'node:stream';

/**
 * A stream of `parts`, one chunk per read (the shape of a request body); destroyed with
 * "client aborted" when part `failAt` is due, as when the uploading client goes away.
 */
export function chunkStream(parts: (string | Buffer)[], failAt?: number): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (failAt != null && i === failAt) {
        this.destroy(new Error('client aborted'));
        return;
      }
      const part = parts[i++];
      this.push(part === undefined ? null : typeof part === 'string' ? Buffer.from(part) : part);
    },
  });
}
