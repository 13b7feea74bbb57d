/**
 * Bulk loading with COPY: rows of a drizzle table encoded in PostgreSQL's COPY text format
 * and sent with `COPY ... FROM STDIN` (pg-copy-streams) on PostgreSQL, or
 * `COPY ... FROM '/dev/blob'` with the batch as a Blob on PGlite (its fastest bulk path: one
 * statement per batch, no bind parameters, no SQL to plan).
 *
 * `withBulkLoad` runs a load: one transaction on one connection on PostgreSQL (every COPY and
 * statement commits together or not at all); see BulkLoad for PGlite.
 */
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { PGlite, Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database, Db, Executor } from './database.ts';
import * as schema from './schema/index.ts';

/** How a table's rows are written as COPY text: its columns in order, JSON columns marked. */
export interface CopyTable<Row> {
  sql: string;
  columns: { key: keyof Row & string; json: boolean }[];
}

/** The COPY statement and column encoding of a drizzle table (every column, in table order). */
export function copyTableOf<T extends Table>(table: T, source: string): CopyTable<T['$inferInsert']> {
  const cols = Object.entries(getTableColumns(table)).map(([key, c]) => ({
    key: key,
    name: c.name,
    json: c.columnType === 'PgJsonb' || c.columnType === 'PgJson',
  }));
  const list = cols.map((c) => `"${c.name}"`).join(', ');
  return { sql: `COPY "${getTableName(table)}" (${list}) FROM ${source}`, columns: cols };
}

/**
 * The COPY of a drizzle table whose rows are encoded without the column of `key`, which the
 * statement lists last: each line's value of it is appended where the rows are sent
 * (appendLastField). Rows encoded away from where they are stored (the analysis thread) need not
 * know that value.
 */
export function copyTableWithLast<T extends Table>(table: T, source: string, key: keyof T['$inferInsert'] & string): CopyTable<T['$inferInsert']> {
  const all = copyTableOf(table, source);
  const column = getTableColumns(table)[key];
  if (!column) throw new Error(`copyTableWithLast: ${getTableName(table)} has no column ${key}`);
  const columns = all.columns.filter((c) => c.key !== key);
  const names = [...columns.map((c) => getTableColumns(table)[c.key]!.name), column.name];
  return { sql: `COPY "${getTableName(table)}" (${names.map((n) => `"${n}"`).join(', ')}) FROM ${source}`, columns };
}

/** COPY text of copyTableWithLast with `value` (plain text: no tab, newline or backslash) as every line's last field. */
export function appendLastField(text: string, value: string): string {
  if (/[\\\n\r\t]/.test(value)) throw new Error('appendLastField: the value holds a character COPY text escapes');
  return text.replaceAll('\n', `\t${value}\n`);
}

const SPECIAL = /[\\\n\r\t]/;
const SPECIAL_ALL = /[\\\n\r\t]/g;
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A field in COPY text format: backslash, newline, carriage return and tab escaped. */
function escapeField(s: string): string {
  return SPECIAL.test(s) ? s.replace(SPECIAL_ALL, (ch) => ESCAPED[ch]!) : s;
}

/**
 * A JSON value as a COPY field. JSON.stringify escapes every control character, so its text
 * holds no raw newline, carriage return or tab: only backslashes need doubling.
 */
function jsonField(v: unknown): string {
  const text = JSON.stringify(v);
  return text.indexOf('\\') === -1 ? text : text.replace(/\\/g, '\\\\');
}

/** A one-dimensional array value (`{"a","b",NULL}`): elements quoted, `"` and `\\` escaped. */
function arrayLiteral(values: unknown[], column: string): string {
  const items = values.map((e) => {
    if (e === null || e === undefined) return 'NULL';
    if (typeof e !== 'string' && typeof e !== 'number' && typeof e !== 'boolean') {
      throw new TypeError(`COPY: column ${column} holds an array element of type ${typeof e}, expected a scalar`);
    }
    return `"${String(e).replace(/["\\]/g, '\\$&')}"`;
  });
  return `{${items.join(',')}}`;
}

/**
 * Rows as COPY text (tab-separated, `\\N` for NULL, one line per row), built as one string:
 * a genome's 1.1 M rows go through here on the job's main thread.
 */
export function encodeCopyRows<Row>(table: CopyTable<Row>, rows: readonly Row[]): string {
  const cols = table.columns;
  let out = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    for (let c = 0; c < cols.length; c++) {
      const col = cols[c]!;
      const v = row[col.key] as unknown;
      let field: string;
      if (v === null || v === undefined) field = '\\N';
      else if (col.json) field = jsonField(v);
      else if (typeof v === 'string') field = escapeField(v);
      else if (typeof v === 'number') field = String(v);
      else if (typeof v === 'boolean') field = v ? 't' : 'f';
      else if (v instanceof Date) field = v.toISOString();
      else if (Array.isArray(v)) field = escapeField(arrayLiteral(v, col.key));
      else throw new TypeError(`COPY: column ${col.key} has a value of type ${typeof v}, expected a scalar`);
      out += c === 0 ? field : `\t${field}`;
    }
    out += '\n';
  }
  return out;
}

/** COPY into a table, inside a transaction. */
export interface BulkTx {
  db: Executor;
  copy<Row>(table: CopyTable<Row>, rows: readonly Row[]): Promise<void>;
}

/**
 * A bulk load. On PostgreSQL the whole load is one transaction on one connection (a failure
 * leaves nothing); on PGlite, whose single connection is shared with every API request, each
 * `copy` outside `transaction` commits on its own (so requests are not stalled for the length
 * of a load) and only `transaction` is atomic: callers write bulk rows under a key that
 * readers do not see until the `transaction` step publishes it.
 */
export interface BulkLoad {
  /** Is the whole load one transaction? */
  readonly singleTransaction: boolean;
  /** An executor for statements of the load (after every COPY sent so far). */
  query(): Promise<Executor>;
  /**
   * Sends rows with COPY. On PostgreSQL it returns once the previous batch is loaded, so the
   * caller prepares the next batch while this one is written (at most two in flight).
   */
  copy<Row>(table: CopyTable<Row>, rows: readonly Row[]): Promise<void>;
  /**
   * Sends rows already encoded as COPY text of `table` (PostgreSQL only: `copiesText`), as `copy`
   * does: it returns once the previous batch is loaded.
   */
  copyText<Row>(table: CopyTable<Row>, text: string): Promise<void>;
  /** Does copyText work (PostgreSQL), or must rows go through `copy` (PGlite)? */
  readonly copiesText: boolean;
  /** Runs `fn` atomically (inside the load's transaction on PostgreSQL). */
  transaction<T>(fn: (tx: BulkTx) => Promise<T>): Promise<T>;
}

/** COPY statements per table for each driver. */
const STDIN = 'STDIN';
const BLOB = "'/dev/blob'";

const copyStatements = new WeakMap<object, Map<string, CopyTable<never>>>();

/** Caches the encoding of `table` for the given driver (COPY from STDIN or /dev/blob). */
export function cachedCopyTable<T extends Table>(table: T, kind: Database['kind']): CopyTable<T['$inferInsert']> {
  const source = kind === 'postgres' ? STDIN : BLOB;
  let byKind = copyStatements.get(table);
  if (!byKind) copyStatements.set(table, (byKind = new Map<string, CopyTable<never>>()));
  let t = byKind.get(source);
  if (!t) byKind.set(source, (t = copyTableOf(table, source) as CopyTable<never>));
  return t as CopyTable<T['$inferInsert']>;
}

/** Runs `fn` as a bulk load (see BulkLoad); on PostgreSQL commits when `fn` resolves and rolls back when it throws. */
export async function withBulkLoad<T>(database: Database, fn: (load: BulkLoad) => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return fn(pgliteLoad(database.client));
  const client = await database.pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const db = drizzleNodePg(client, { schema }) as unknown as Db;
    let pending: Promise<void> = Promise.resolve();
    const copyText = async <Row>(table: CopyTable<Row>, text: string): Promise<void> => {
      const previous = pending;
      if (text.length === 0) return previous;
      const stream = client.query(copyFrom(table.sql)) as Writable;
      stream.end(text);
      const done = finished(stream);
      // The next call (or query()) awaits it; until then its failure is held, not unhandled.
      done.catch(() => undefined);
      pending = previous.then(() => done);
      // Awaited by the next call or the commit; when the load fails first, nobody does.
      pending.catch(() => undefined);
      await previous;
    };
    const copy = <Row>(table: CopyTable<Row>, rows: readonly Row[]): Promise<void> =>
      copyText(table, rows.length === 0 ? '' : encodeCopyRows(table, rows));
    const query = async () => {
      await pending;
      return db;
    };
    const load: BulkLoad = {
      singleTransaction: true,
      copiesText: true,
      query,
      copy,
      copyText,
      async transaction(f) {
        return f({ db: await query(), copy: async (t, r) => { await copy(t, r); await pending; } });
      },
    };
    const result = await fn(load);
    await pending;
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true; // the connection is unusable: drop it rather than return it to the pool
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

type PgliteQueryable = Pick<PGlite, 'query'> | Pick<PgliteTransaction, 'query'>;

/**
 * Rows per COPY on PGlite. PGlite executes on the API's own thread, synchronously inside each
 * statement, so one statement of 5,000 wide rows held the event loop for 1-2 s on a loaded
 * machine and a genome's load starved every request for tens of seconds (bench:soak with
 * --genome-records). Small statements with a turn of the event loop between them bound the
 * wait of a concurrent request to one chunk.
 */
export const PGLITE_COPY_CHUNK = 500;

/**
 * Requests the API is answering right now (counted by the app on PGlite). While there are any,
 * a bulk load pauses between chunks, up to PGLITE_YIELD_MAX_MS, so an interactive request's
 * statements get the single connection before the next chunk: the API first, the load after.
 */
export const interactiveRequests = { inFlight: 0 };
export const PGLITE_YIELD_MAX_MS = 50;

/**
 * A turn of the event loop (new requests are read and their first statements run), then a
 * wait of up to PGLITE_YIELD_MAX_MS while requests are in flight (counted on PGlite only): the
 * pause a long database job takes between its statements. PGlite's queued statements otherwise
 * run one after the other in promise continuations, and the event loop turns only once the job
 * is done.
 */
export async function yieldToRequests(): Promise<void> {
  // Two immediates: the first ends the current turn, the second runs after the next poll phase,
  // where the requests that arrived meanwhile are read (one alone can run before it).
  await new Promise<void>((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => setImmediate(resolve));
  const until = performance.now() + PGLITE_YIELD_MAX_MS;
  while (interactiveRequests.inFlight > 0 && performance.now() < until) {
    await new Promise<void>((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * Outside a transaction the load gives way to requests between chunks; inside one it does not
 * (`giveWay` false): the transaction holds the single connection, so a pause there would only
 * make the waiting requests wait longer.
 */
async function pgliteCopy<Row>(client: PgliteQueryable, table: CopyTable<Row>, rows: readonly Row[], giveWay: boolean): Promise<void> {
  for (let i = 0; i < rows.length; i += PGLITE_COPY_CHUNK) {
    const chunk = rows.slice(i, i + PGLITE_COPY_CHUNK);
    await client.query(table.sql, [], { blob: new Blob([encodeCopyRows(table, chunk)]) });
    if (giveWay) await yieldToRequests();
  }
}

function pgliteLoad(client: PGlite): BulkLoad {
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    singleTransaction: false,
    copiesText: false,
    copyText: () => Promise.reject(new Error('PGlite loads rows with copy(): copyText is not supported')),
    query: () => Promise.resolve(db),
    copy: (table, rows) => pgliteCopy(client, table, rows, true),
    transaction: (fn) =>
      client.transaction(async (ptx) =>
        // drizzle's PGlite driver runs on the transaction handle (it has the same query API).
        fn({
          db: drizzlePglite({ client: ptx as unknown as PGlite, schema }),
          copy: (table, rows) => pgliteCopy(ptx, table, rows, false),
        }),
      ),
  };
}
