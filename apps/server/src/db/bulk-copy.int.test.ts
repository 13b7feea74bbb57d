/**
 * COPY bulk loading on both drivers: awkward text (tabs, newlines, backslashes, the literal
 * `\N`, non-ASCII), NULLs, JSON, booleans and numbers come back as written; a failing load on
 * PostgreSQL leaves nothing, and PGlite's atomic step rolls back as a whole.
 */
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, real, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendLastField, cachedCopyTable, copyTableWithLast, encodeCopyRows, withBulkLoad } from './bulk-copy.ts';
import { rowsOf, type Database } from './database.ts';
import { bothDatabases } from '../testing/databases.ts';

const probe = pgTable('bulk_copy_probe', {
  id: integer('id').notNull(),
  label: text('label'),
  flag: boolean('flag').notNull(),
  score: real('score'),
  doc: jsonb('doc'),
  tags: text('tags').array(),
});
type ProbeRow = typeof probe.$inferInsert;

const ROWS: ProbeRow[] = [
  { id: 1, label: 'plain', flag: true, score: 0.5, doc: { a: [1, 2], s: 'x' }, tags: ['de_novo', 'a"quoted"', 'back\\slash', 'x,y', '{z}', 'tab\there', ''] },
  { id: 2, tags: [], label: 'tab\there\nnew line\r\\back\\slash', flag: false, score: -1e-7, doc: { text: 'line1\nline2\t"q"\\' } },
  { id: 3, label: '\\N', flag: true, score: null, doc: null },
  { id: 4, label: null, flag: false, score: 3.25, doc: ['ünïcødé', 'é\u00e9'] },
  { id: 5, label: 'ÄÖÜ 漢字 🧬', flag: true, score: 1e30, doc: { nested: { deep: [null, true, 0] } } },
];

const { databases, removeDirs } = bothDatabases('rarelens-bulk-copy-');

afterAll(removeDirs);

describe('encodeCopyRows', () => {
  it('writes COPY text: tab-separated, \\N for NULL, escapes, JSON and booleans', () => {
    const table = cachedCopyTable(probe, 'postgres');
    expect(table.sql).toBe('COPY "bulk_copy_probe" ("id", "label", "flag", "score", "doc", "tags") FROM STDIN');
    expect(encodeCopyRows(table, [ROWS[1]!, ROWS[2]!])).toBe(
      '2\ttab\\there\\nnew line\\r\\\\back\\\\slash\tf\t-1e-7\t{"text":"line1\\\\nline2\\\\t\\\\"q\\\\"\\\\\\\\"}\t{}\n' +
        '3\t\\\\N\tt\t\\N\t\\N\t\\N\n',
    );
    expect(cachedCopyTable(probe, 'pglite').sql).toBe('COPY "bulk_copy_probe" ("id", "label", "flag", "score", "doc", "tags") FROM \'/dev/blob\'');
  });
  it('encodes rows without one column, listed last and appended to every line', () => {
    const table = copyTableWithLast(probe, 'STDIN', 'label');
    expect(table.sql).toBe('COPY "bulk_copy_probe" ("id", "flag", "score", "doc", "tags", "label") FROM STDIN');
    expect(appendLastField(encodeCopyRows(table, [ROWS[2]!, ROWS[3]!]), 'run-1')).toBe('3\tt\t\\N\t\\N\t\\N\trun-1\n4\tf\t3.25\t["ünïcødé","éé"]\t\\N\trun-1\n');
    expect(() => appendLastField('1\n', 'a\tb')).toThrow(/escapes/);
  });
});

describe.each(databases)('COPY on $name', ({ name, open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await database.db.execute(sql`drop table if exists bulk_copy_probe`);
    await database.db.execute(sql`create table bulk_copy_probe (id int not null primary key, label text, flag boolean not null, score real, doc jsonb, tags text[])`);
  });
  afterAll(async () => {
    await database.db.execute(sql`drop table if exists bulk_copy_probe`);
    await database.close();
  });

  const readBack = async () =>
    rowsOf(await database.db.execute(sql`select id, label, flag, score, doc, tags from bulk_copy_probe order by id`));

  it('stores every value as written', async () => {
    await database.db.execute(sql`delete from bulk_copy_probe`);
    const table = cachedCopyTable(probe, database.kind);
    await withBulkLoad(database, async (load) => {
      await load.copy(table, ROWS.slice(0, 2));
      await load.copy(table, ROWS.slice(2));
      await load.transaction(async (tx) => {
        await tx.copy(table, []);
      });
    });
    const back = await readBack();
    expect(back.map((r) => r.label)).toEqual(ROWS.map((r) => r.label));
    expect(back.map((r) => r.flag)).toEqual(ROWS.map((r) => r.flag));
    expect(back.map((r) => r.doc)).toEqual(ROWS.map((r) => r.doc));
    expect(back.map((r) => r.tags)).toEqual(ROWS.map((r) => r.tags ?? null));
    expect(back.map((r) => (r.score === null ? null : Math.fround(Number(r.score))))).toEqual(
      ROWS.map((r) => (r.score == null ? null : Math.fround(r.score))),
    );
  });

  it('stores rows sent as COPY text with the last column appended (copyText, PostgreSQL only)', async () => {
    await database.db.execute(sql`delete from bulk_copy_probe`);
    const table = copyTableWithLast(probe, 'STDIN', 'label');
    if (name === 'PGlite') {
      await withBulkLoad(database, async (load) => {
        expect(load.copiesText).toBe(false);
        await expect(load.copyText(table, '3\tt\t\\N\t\\N\t\\N\tx\n')).rejects.toThrow(/not supported/);
      });
      return;
    }
    await withBulkLoad(database, async (load) => {
      expect(load.copiesText).toBe(true);
      await load.copyText(table, appendLastField(encodeCopyRows(table, ROWS.slice(2, 4)), 'same label'));
    });
    const back = await readBack();
    expect(back.map((r) => [r.id, r.label, r.doc])).toEqual([[3, 'same label', null], [4, 'same label', ROWS[3]!.doc]]);
  });

  it('leaves nothing of a failed atomic step (and, on PostgreSQL, of the whole load)', async () => {
    await database.db.execute(sql`delete from bulk_copy_probe`);
    const table = cachedCopyTable(probe, database.kind);
    const failing = withBulkLoad(database, async (load) => {
      await load.copy(table, ROWS.slice(0, 2));
      await load.transaction(async (tx) => {
        await tx.copy(table, ROWS.slice(2));
        await tx.copy(table, [ROWS[0]!]); // duplicate primary key
      });
    });
    await expect(failing).rejects.toThrow(/duplicate key|unique/i);
    const ids = (await readBack()).map((r) => r.id);
    expect(ids).toEqual(database.kind === 'postgres' ? [] : [1, 2]);
  });

  it('rolls back the whole load on PostgreSQL when the caller throws after COPY', async () => {
    await database.db.execute(sql`delete from bulk_copy_probe`);
    const table = cachedCopyTable(probe, database.kind);
    await expect(
      withBulkLoad(database, async (load) => {
        await load.copy(table, ROWS);
        expect((rowsOf(await (await load.query()).execute(sql`select count(*)::int as n from bulk_copy_probe`))[0]?.n)).toBe(ROWS.length);
        throw new Error('annotation failed');
      }),
    ).rejects.toThrow('annotation failed');
    expect((await readBack()).length).toBe(database.kind === 'postgres' ? 0 : ROWS.length);
  });
});
