/**
 * Plan caching of the variant list's prepared statements (issue 14 item 4): for each list query
 * shape of bench/lib/list-queries.ts (clustered excluded), the statement the server prepares
 * (recorded from variants.repository on a drizzle handle), then on one connection:
 *  - EXPLAIN ANALYZE EXECUTE 4 times under plan_cache_mode force_custom_plan and
 *    force_generic_plan: planning / execution ms and the plan's scan nodes;
 *  - 10 executions under the default (auto) mode, as is and with the page size literal in
 *    LIMIT, and how many used a generic plan (pg_prepared_statements).
 * Usage: node --import tsx bench/lib/list-plans.ts DATABASE_URL RUN_ID [name regexp]
 */
import pg from 'pg';
import { drizzle } from '../../apps/server/node_modules/drizzle-orm/node-postgres/index.js';
import { VariantListQuery } from '@rarelens/contract';
import * as schema from '../../apps/server/src/db/schema/index.ts';
import type { Db } from '../../apps/server/src/db/database.ts';
import * as repo from '../../apps/server/src/modules/variants/variants.repository.ts';
import { variantFilters } from '../../apps/server/src/modules/variants/variants.service.ts';
import { LIST_QUERIES } from './list-queries.ts';

const [url, runId] = process.argv.slice(2) as [string, string];
const pool = new pg.Pool({ connectionString: url, max: 1 });
const recorded: { query: string; params: unknown[] }[] = [];
const db = drizzle(pool, { schema, logger: { logQuery: (query, params) => recorded.push({ query, params }) } }) as unknown as Db;
const lit = (v: unknown): string => {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return pg.Client.prototype.escapeLiteral('{' + v.map((e: unknown) => `"${String(e as string | number).replace(/["\\]/g, (m) => '\\' + m)}"`).join(',') + '}');
  if (typeof v === 'string' || typeof v === 'boolean') return pg.Client.prototype.escapeLiteral(String(v));
  throw new Error(`no SQL literal for ${JSON.stringify(v)}`);
};
const c = await pool.connect();
const caseId = (await c.query<{ product_id: string }>('select product_id from analysis_runs where id = $1', [runId])).rows[0]?.product_id;
if (caseId === undefined) throw new Error(`no analysis run ${runId}`);
c.release();
const nodes = (plan: string[]) => plan.filter((l) => /Scan|Sort|Limit/.test(l)).map((l) => l.trim().replace(/\s+\(cost.*$/, '').replace(/\(actual.*$/, '').replace(/^->\s*/, '')).join('; ');
const pick = process.argv[4] ? new RegExp(process.argv[4]) : /./;
for (const q of LIST_QUERIES) {
  if (!pick.test(q.name)) continue;
  const parsed = VariantListQuery.parse(Object.fromEntries(new URLSearchParams(q.query(q.pages))));
  if (parsed.mode === 'clustered') continue;
  const filters = variantFilters(parsed);
  const page = { page: parsed.page, pageSize: parsed.pageSize };
  let after;
  if (q.keyset) {
    const before = await repo.listVariants(db, caseId, runId, filters, { page: page.page - 1 || 1, pageSize: page.pageSize });
    const last = before.rows.at(-1)!;
    after = { rank: last.rank, score: last.score, id: last.id };
  }
  recorded.length = 0;
  await repo.listVariants(db, caseId, runId, filters, page, after);
  const { query, params } = recorded.at(-1)!;
  const cl = await pool.connect();
  try {
    await cl.query(`prepare s as ${query}`);
    const exec = `execute s(${params.map(lit).join(', ')})`;
    const out: string[] = [];
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      await cl.query(`set plan_cache_mode = ${mode}`);
      let last: string[] = [];
      const times: string[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await cl.query(`explain (analyze, timing off, summary on) ${exec}`);
        last = r.rows.map((x: Record<string, string>) => x['QUERY PLAN']!);
        const pl = last.find((l) => l.startsWith('Planning Time'))?.replace('Planning Time: ', '').replace(' ms', '') ?? '?';
        const ex = last.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '').replace(' ms', '') ?? '?';
        times.push(`${pl}/${ex}`);
      }
      out.push(`  ${mode}: plan/exec ms ${times.join(' ')} | ${nodes(last)}`);
    }
    const types = (await cl.query<{ t: string[] }>(`select parameter_types::text[] as t from pg_prepared_statements where name = 's'`)).rows[0]?.t ?? [];
    for (const variant of ['as is', 'limit literal']) {
      let text = query;
      if (variant === 'limit literal') {
        const li = params.findIndex((v) => v === page.pageSize) + 1;
        text = text.replace(new RegExp(`limit \\$${li}\\b`, 'g'), `limit ${page.pageSize}`);
      }
      await cl.query('reset plan_cache_mode');
      await cl.query(`prepare a (${types.join(', ')}) as ${text}`);
      for (let i = 0; i < 10; i++) await cl.query(`execute a(${params.map(lit).join(', ')})`);
      const st = (await cl.query<{ generic_plans: string; custom_plans: string }>(`select generic_plans, custom_plans from pg_prepared_statements where name = 'a'`)).rows[0];
      out.push(`  auto, ${variant}: generic ${st?.generic_plans ?? '?'} custom ${st?.custom_plans ?? '?'}`);
      await cl.query('deallocate a');
    }
    console.log(`${q.name} (page ${page.page}${q.keyset ? ', keyset' : ''})\n${out.join('\n')}`);
    await cl.query('deallocate s; reset plan_cache_mode');
  } finally {
    cl.release();
  }
}
await pool.end();
