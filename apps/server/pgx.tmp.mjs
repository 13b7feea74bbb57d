import { PGlite } from '@electric-sql/pglite';
const [dir, ...stmts] = process.argv.slice(2);
const t = performance.now();
const db = await PGlite.create(dir);
console.log('open', Math.round(performance.now() - t), 'ms');
for (const s of stmts) {
  const t0 = performance.now();
  try {
    const r = await db.query(s);
    console.log(Math.round(performance.now() - t0), 'ms', s, JSON.stringify(r.rows.slice(0, 12)));
  } catch (e) { console.log('ERR', s, e.message); }
}
await db.close();
