/**
 * The KB's binary container for its large files: a small JSON skeleton and, after it, the raw
 * bytes of the value's long strings (the packed and base64 columns that make up nearly all of a
 * KB file), laid out like safetensors (header length, JSON header, raw data):
 *
 *   bytes 0-7    magic "RLKBBIN1"
 *   bytes 8-11   skeleton length S (uint32, little-endian)
 *   bytes 12..   skeleton: UTF-8 JSON of the value, each long string replaced by {"$blob": [offset, length]}
 *   bytes 12+S.. the long strings' characters, one byte each (Latin-1), offsets relative to here
 *
 * Loading reads the file once, parses the skeleton (a few hundred bytes for the column files)
 * and makes each long string with one copy of its bytes (Buffer.toString('latin1')), instead of JSON.parse
 * scanning 10-16 MB of text per file: the KB of every annotation thread and server process loads
 * in a fraction of the time (bench/results/annotate.latest.md, session 16). The strings are the
 * same as JSON.parse of the JSON form gives (one-byte strings), so every reader of the value is
 * unchanged.
 */
import { readFile } from 'node:fs/promises';
import { jsonTextOf } from './io.ts';
import { KbSourceError } from './types.ts';

const MAGIC = 'RLKBBIN1';
const HEADER = 12;
/** Strings from this length on go to the raw data (shorter ones stay in the skeleton). */
export const BLOB_MIN_LENGTH = 1024;
/** The marker key of a long string in the skeleton (no KB file has it as a key of its own). */
const BLOB_KEY = '$blob';

/** Whether `s` can be stored one byte per character. */
function isLatin1(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return false;
  return true;
}

/** The container bytes of a JSON value (plain objects, arrays, strings, numbers, booleans, null). */
export function encodeKbContainer(value: unknown): Buffer {
  const blobs: string[] = [];
  let offset = 0;
  const skeleton = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, BLOB_KEY)) {
      throw new Error(`a KB value has the container's marker key ${BLOB_KEY} (at ${JSON.stringify(key)})`);
    }
    if (typeof v === 'string' && v.length >= BLOB_MIN_LENGTH && isLatin1(v)) {
      const marker = { [BLOB_KEY]: [offset, v.length] };
      blobs.push(v);
      offset += v.length;
      return marker;
    }
    return v;
  });
  if (skeleton === undefined) throw new Error('a KB value must be JSON');
  const head = Buffer.from(skeleton, 'utf8');
  const out = Buffer.allocUnsafe(HEADER + head.length + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(head.length, 8);
  head.copy(out, HEADER);
  let at = HEADER + head.length;
  for (const s of blobs) at += out.write(s, at, 'latin1');
  return out;
}

/** Whether `buf` starts as a container does. */
export function isKbContainer(buf: Buffer): boolean {
  return buf.length >= HEADER && buf.toString('latin1', 0, MAGIC.length) === MAGIC;
}

/**
 * The value of container bytes (`path`: the file, for errors). A file that is not a container,
 * is cut short or points outside itself is a KbSourceError naming the file.
 */
export function decodeKbContainer<T>(buf: Buffer, path: string): T {
  const bad = (why: string) => new KbSourceError(path, `not a readable KB container (${why}); rebuild the KB with 'rarelens kb build'`);
  if (!isKbContainer(buf)) throw bad(`no ${MAGIC} magic`);
  const s = buf.readUInt32LE(8);
  if (HEADER + s > buf.length) throw bad(`header of ${s} bytes, file of ${buf.length}`);
  let skeleton: unknown;
  try {
    skeleton = JSON.parse(jsonTextOf(buf.subarray(HEADER, HEADER + s)));
  } catch (e) {
    throw bad(`header: ${(e as Error).message}`);
  }
  const base = HEADER + s;
  const size = buf.length - base;
  const restore = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') v[i] = restore(x);
      }
      return v;
    }
    const o = v as Record<string, unknown>;
    const blob = o[BLOB_KEY];
    if (blob !== undefined) {
      const [off, len] = Array.isArray(blob) ? (blob as unknown[]) : [];
      if (typeof off !== 'number' || typeof len !== 'number' || !Number.isInteger(off) || !Number.isInteger(len) || off < 0 || len < 0 || off + len > size) {
        throw bad(`string at ${JSON.stringify(blob)} outside the ${size} bytes of data`);
      }
      return buf.toString('latin1', base + off, base + off + len);
    }
    for (const k in o) {
      const x = o[k];
      if (x !== null && typeof x === 'object') o[k] = restore(x);
    }
    return o;
  };
  return restore(skeleton) as T;
}

/** A container file of a built KB; one that is missing or unreadable is a KbSourceError naming the file. */
export async function readKbContainerFile<T>(path: string, problem: (e: NodeJS.ErrnoException) => string): Promise<T> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    throw new KbSourceError(path, problem(e as NodeJS.ErrnoException));
  }
  return decodeKbContainer<T>(buf, path);
}
