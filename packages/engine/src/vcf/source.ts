/**
 * Byte source -> decoded text chunks. Compression is detected from magic bytes, not the file
 * name: gzip and BGZF (a series of gzip members) go through one streaming gunzip, which reads
 * every member; anything else is read as plain text. Chunks are large (1 MiB) because the
 * per-chunk overhead dominates on small ones.
 */

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { isAscii } from 'node:buffer';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { VcfParseError } from './errors.ts';

export type VcfInput = string | Readable | AsyncIterable<Uint8Array>;

export type Compression = 'gzip' | 'bgzf' | 'none';

const CHUNK = 1 << 20;

function compressionOf(head: Uint8Array): Compression {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    // BGZF: FLG.FEXTRA with a 'BC' subfield (SAM/BAM spec §4.1).
    if (head.length >= 14 && (head[3]! & 4) !== 0 && head[12] === 0x42 && head[13] === 0x43) return 'bgzf';
    return 'gzip';
  }
  return 'none';
}

export interface TextSource {
  name: string;
  compression: Compression;
  chunks: AsyncIterable<string>;
  /**
   * The input not yet taken from `chunks`, as (decompressed) bytes: for a reader that has read
   * what it needs as text (the header) and hands the rest on as bytes. Not to be used with `chunks` after.
   */
  rest: () => AsyncIterator<Uint8Array>;
  /** Compressed bytes consumed so far (for progress). */
  bytesRead(): number;
  destroy(): void;
}

/** True when a UTF-8 buffer ends with an incomplete multi-byte sequence. */
function endsInsideCharacter(b: Buffer): boolean {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const c = b[b.length - back]!;
    if ((c & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > back;
  }
  return false;
}

async function* prepend(first: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield first;
  for (;;) {
    const n = await rest.next();
    if (n.done === true) return;
    yield n.value;
  }
}

/** Open a VCF byte source and decode it to text, decompressing when the bytes say gzip. */
export async function openTextSource(input: VcfInput, name?: string): Promise<TextSource> {
  let raw: Readable;
  let compression: Compression;
  let label: string;
  if (typeof input === 'string') {
    label = name ?? input;
    const fh = await open(input, 'r').catch((err: NodeJS.ErrnoException) => {
      throw new VcfParseError(label, 0, `cannot open: ${err.code ?? err.message}`);
    });
    const head = Buffer.alloc(18);
    const { bytesRead } = await fh.read(head, 0, 18, 0);
    await fh.close();
    compression = compressionOf(head.subarray(0, bytesRead));
    raw = createReadStream(input, { highWaterMark: CHUNK });
  } else {
    label = name ?? '<stream>';
    const it = (input as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    // Gather enough bytes to recognise gzip/BGZF even from a stream of tiny chunks.
    const parts: Buffer[] = [];
    let have = 0;
    let ended = false;
    while (have < 18) {
      const n = await it.next();
      if (n.done === true) {
        ended = true;
        break;
      }
      const b = Buffer.from(n.value.buffer, n.value.byteOffset, n.value.byteLength);
      parts.push(b);
      have += b.length;
    }
    const head = Buffer.concat(parts);
    compression = compressionOf(head);
    raw = Readable.from(ended ? (head.length > 0 ? [head] : []) : prepend(head, it), { objectMode: false });
  }
  let consumed = 0;
  raw.on('data', (b: Buffer) => {
    consumed += b.length;
  });
  // A 'data' listener starts the flow: hold it until the consumer iterates, or bytes read before
  // then (e.g. while a second file is being opened) would be lost.
  raw.pause();
  const decompressed: Readable =
    compression === 'none'
      ? raw
      : raw.pipe(createGunzip({ chunkSize: CHUNK }));
  if (compression !== 'none') {
    // Errors of the raw stream (I/O) must reach the consumer of the gunzip stream.
    raw.on('error', (err) => decompressed.destroy(err));
  }
  // One iterator over the decompressed bytes, shared by `chunks` (text, for the header and most
  // readers) and rest() (the rest of the input as bytes, once the text reader has stopped).
  const rawChunks = decompressed[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const decoder = new StringDecoder('utf8');
  // Most VCF text is pure ASCII: such chunks are copied byte for byte (several times faster
  // than UTF-8 decoding). The UTF-8 decoder is used for any chunk with a non-ASCII byte and
  // for the chunk after one that ended inside a multi-byte character.
  let decoderHoldsBytes = false;
  const readError = (err: unknown): VcfParseError => {
    const msg = (err as Error).message;
    return new VcfParseError(label, 0, compression !== 'none' ? `corrupt or truncated gzip data: ${msg}` : `read error: ${msg}`);
  };
  // The chunks that are left: `ascii` of a chunk copied as is, else `text` of the decoder's text.
  async function* read<T>(ascii: (b: Buffer) => T, text: (s: string) => T): AsyncGenerator<T> {
    try {
      for (;;) {
        const n = await rawChunks.next();
        if (n.done === true) break;
        const b = n.value;
        if (!decoderHoldsBytes && isAscii(b)) {
          yield ascii(b);
        } else {
          const t = decoder.write(b);
          // (Set before the yield: the reader of rest() reads it when the text reader stopped here.)
          decoderHoldsBytes = endsInsideCharacter(b);
          yield text(t);
        }
      }
    } catch (err) {
      throw readError(err);
    }
    const tail = decoder.end();
    if (tail.length > 0) yield text(tail);
  }
  return {
    name: label,
    compression,
    chunks: read((b) => b.toString('latin1'), (t) => t),
    // The text `chunks` would give, as UTF-8 bytes: ASCII chunks as they are, the others (and the
    // end of a character the decoder holds from the text read before) decoded and encoded again.
    rest: () => read<Uint8Array>((b) => b, (t) => Buffer.from(t, 'utf8')),
    bytesRead: () => consumed,
    destroy: () => {
      raw.destroy();
      decompressed.destroy();
    },
  };
}
