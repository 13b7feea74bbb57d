/**
 * Database-side time of each variant-list query shape (bench:cases): runs the server's own
 * list code (variants.repository with the contract's query parsing and the service's filter
 * mapping) on a drizzle handle that records every statement, then runs each recorded
 * statement again under EXPLAIN (ANALYZE, BUFFERS), as the server plans it (a page whose filters
 * one plan fits: prepared with a generic plan, as Database.genericPlanDb runs it; another page:
 * prepared on the main pool, PostgreSQL's choice after five runs; counts and gene lists: unnamed,
 * planned for their values), and reports the planning and execution time and the plan's top
 * nodes. Counts are the uncached (first request) cost; later requests of the same run, ranking and
 * filter read the count cache. Run standalone:
 *   node --import tsx bench/lib/list-explain.ts DATABASE_URL RUN_ID
 */
import pg from 'pg';
// drizzle-orm is a dependency of the server workspace (apps/server/node_modules).
import { drizzle } from '../../apps/server/node_modules/drizzle-orm/node-postgres/index.js';
import { VariantListQuery } from '@rarelens/contract';
import * as schema from '../../apps/server/src/db/schema/index.ts';
import type { Db } from '../../apps/server/src/db/database.ts';
import * as repo from '../../apps/server/src/modules/variants/variants.repository.ts';
import { variantFilters } from '../../apps/server/src/modules/variants/variants.service.ts';
import { planFitsAnyValues } from '../../apps/server/src/db/run-variants.ts';
import { LIST_QUERIES } from './list-queries.ts';

export interface ExplainRow {
  name: string;
  statement: 'page' | 'keyset page' | 'count' | 'cluster genes' | 'cluster page';
  /**
   * How the server plans it: once for every value ('generic', Database.genericPlanDb); unnamed,
   * for its values ('custom'); prepared on the main pool, PostgreSQL's choice after five runs
   * ('auto: generic' or 'auto: custom', the latter planned again on every request).
   */
  planned: 'generic' | 'custom' | 'auto: generic' | 'auto: custom';
  planningMs: number;
  ms: number;
  plan: string;
}

/** EXPLAIN ANALYZE of every statement of every list query shape, at the deepest page the load asks for. */
export async function explainListQueries(databaseUrl: string, runId: string): Promise<ExplainRow[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const recorded: { query: string; params: unknown[] }[] = [];
  const db = drizzle(pool, { schema, logger: { logQuery: (query, params) => recorded.push({ query, params }) } }) as unknown as Db;
  const out: ExplainRow[] = [];
  try {
    const run = await pool.query<{ product_id: string }>('select product_id from analysis_runs where id = $1', [runId]);
    const caseId = run.rows[0]?.product_id;
    if (caseId === undefined) throw new Error(`no analysis run ${runId} in ${databaseUrl}`);
    for (const q of LIST_QUERIES) {
      const parsed = VariantListQuery.parse(Object.fromEntries(new URLSearchParams(q.query(q.pages))));
      const filters = variantFilters(parsed);
      const page = { page: parsed.page, pageSize: parsed.pageSize };
      const shapes: { statement: ExplainRow['statement']; run: () => Promise<unknown> }[] = [];
      // The server reads these pages with a generic plan (genericPlanDb); counts and gene lists, once per run and filter, custom.
      const generic = planFitsAnyValues(filters);
      if (parsed.mode === 'clustered') {
        // The gene list is computed once per run, ranking and filter (then cached); each page reads its genes' variants.
        shapes.push({ statement: 'cluster genes', run: () => repo.clusterGenes(db, runId, filters) });
        shapes.push({
          statement: 'cluster page',
          run: async () => {
            const genes = (await repo.clusterGenes(db, runId, filters)).slice((page.page - 1) * page.pageSize, page.page * page.pageSize);
            recorded.length = 0;
            return repo.clusterVariants(db, caseId, runId, filters, genes.map((g) => g.symbol), 20);
          },
        });
      } else if (q.keyset) {
        // The cursor of the page before, as the web app holds it.
        const before = await repo.listVariants(db, caseId, runId, filters, { page: page.page - 1 || 1, pageSize: page.pageSize });
        const last = before.rows.at(-1);
        if (last) shapes.push({ statement: 'keyset page', run: () => repo.listVariants(db, caseId, runId, filters, page, { rank: last.rank, score: last.score, id: last.id }) });
      } else {
        shapes.push({ statement: 'page', run: () => repo.listVariants(db, caseId, runId, filters, page) });
        shapes.push({ statement: 'count', run: () => repo.cappedCount(db, runId, filters) });
      }
      for (const s of shapes) {
        recorded.length = 0;
        await s.run();
        for (const r of recorded) {
          // Counts and gene lists run unnamed (a plan for their values); pages prepared, on genericPlanDb or the main pool.
          const oneShot = s.statement === 'count' || s.statement === 'cluster genes';
          const prepared = oneShot ? null : await explainPrepared(pool, r, generic ? 'generic' : 'auto');
          const plan = prepared ?? (await explainCustom(pool, r));
          const planned: ExplainRow['planned'] = prepared === null ? 'custom' : generic ? 'generic' : prepared.generic ? 'auto: generic' : 'auto: custom';
          out.push({ name: q.name, statement: s.statement, planned, planningMs: plan['Planning Time'], ms: plan['Execution Time'], plan: summarise(plan.Plan) });
        }
      }
    }
  } finally {
    await pool.end();
  }
  return out;
}

interface ExplainedPlan {
  'Planning Time': number;
  'Execution Time': number;
  Plan: PlanNode;
}

/** A statement planned for its values: drizzle's named statements run here unnamed (same text and parameters). */
async function explainCustom(pool: pg.Pool, r: { query: string; params: unknown[] }): Promise<ExplainedPlan> {
  const res = await pool.query(`explain (analyze, buffers, format json) ${r.query}`, r.params);
  return (res.rows[0] as { 'QUERY PLAN': [ExplainedPlan] })['QUERY PLAN'][0];
}

/**
 * A prepared statement as the server's pools run it: `generic`, as genericPlanDb (plan_cache_mode
 * force_generic_plan, planned once); `auto`, as the main pool after five executions (PostgreSQL
 * then keeps the generic plan unless its estimate looks worse than the plans made for the values),
 * with which of the two it ran.
 */
async function explainPrepared(pool: pg.Pool, r: { query: string; params: unknown[] }, mode: 'generic' | 'auto'): Promise<ExplainedPlan & { generic: boolean }> {
  const client = await pool.connect();
  try {
    await client.query(`set plan_cache_mode = ${mode === 'generic' ? 'force_generic_plan' : 'auto'}`);
    await client.query(`prepare explained as ${r.query}`);
    // EXECUTE takes its arguments as literals (a utility statement has no parameters).
    const literal = (v: unknown): string => {
      if (v === null || v === undefined) return 'null';
      if (typeof v === 'number') return String(v);
      if (Array.isArray(v)) return client.escapeLiteral(`{${v.map((x) => `"${String(x).replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
      return client.escapeLiteral(typeof v === 'string' ? v : JSON.stringify(v));
    };
    const execute = `execute explained(${r.params.map(literal).join(', ')})`;
    if (mode === 'auto') for (let i = 0; i < 5; i++) await client.query(execute);
    const before = await client.query<{ n: string }>("select generic_plans::text as n from pg_prepared_statements where name = 'explained'");
    const res = await client.query(`explain (analyze, buffers, format json) ${execute}`);
    const after = await client.query<{ n: string }>("select generic_plans::text as n from pg_prepared_statements where name = 'explained'");
    const plan = (res.rows[0] as { 'QUERY PLAN': [ExplainedPlan] })['QUERY PLAN'][0];
    return { ...plan, generic: Number(after.rows[0]?.n) > Number(before.rows[0]?.n) };
  } finally {
    await client.query('deallocate explained; reset plan_cache_mode');
    client.release();
  }
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

/** The table of explainListQueries' rows (markdown). */
export const EXPLAIN_HEAD = '| query | statement | planned | DB planning ms (generic: once per connection) | DB execution ms | plan (scan nodes) |\n|---|---|---|---:|---:|---|';
export const explainLine = (r: ExplainRow): string => `| ${r.name} | ${r.statement} | ${r.planned} | ${r.planningMs.toFixed(2)} | ${r.ms.toFixed(1)} | ${r.plan} |`;

/** The plan's scan nodes, e.g. "Index Only Scan run_variants_list_idx (rows 10010, heap 0)". */
function summarise(node: PlanNode): string {
  const scans: string[] = [];
  const walk = (n: PlanNode): void => {
    if (/Scan/.test(n['Node Type'])) {
      scans.push(`${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''} (rows ${n['Actual Rows'] ?? '?'}${n['Heap Fetches'] !== undefined ? `, heap ${n['Heap Fetches']}` : ''})`);
    }
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(node);
  return scans.join('; ');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '-')) {
  const [url, runId] = process.argv.slice(2);
  if (!url || !runId) throw new Error('usage: list-explain.ts DATABASE_URL RUN_ID');
  const rows = await explainListQueries(url, runId);
  console.log(EXPLAIN_HEAD);
  for (const r of rows) console.log(explainLine(r));
}
