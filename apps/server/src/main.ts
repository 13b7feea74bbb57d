/** HTTP entry point: `npm start` (root) or `node --import tsx apps/server/src/main.ts`. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildKb } from '@rarelens/engine';
import { buildApp } from './app.ts';
import { loadConfigOrExit, stopOnSignals } from './boot.ts';
import type { Config } from './env.ts';

const config = loadConfigOrExit();

/**
 * First start: build the knowledge base when RARELENS_KB has none. The sources default to the
 * reference data beside the repository (../shared/data) when RARELENS_SOURCES is unset.
 */
async function ensureKnowledgeBase(cfg: Config): Promise<void> {
  if (existsSync(path.join(cfg.kbDir, 'manifest.json'))) return;
  const sourcesDir = cfg.sourcesDir ?? path.resolve(import.meta.dirname, '../../../../shared/data');
  if (!existsSync(sourcesDir)) {
    process.stderr.write(
      `No knowledge base at ${cfg.kbDir} and no reference data at ${sourcesDir}: set RARELENS_SOURCES ` +
        `and restart (or run \`npx rarelens kb build\`). Case analysis fails until a KB exists.\n`,
    );
    return;
  }
  process.stdout.write(`Building the knowledge base from ${sourcesDir} into ${cfg.kbDir} (first start)...\n`);
  const started = Date.now();
  let last = '';
  await buildKb({
    sourcesDir,
    outDir: cfg.kbDir,
    onProgress: (e) => {
      const line = e.kind === 'progress' ? `  ${e.step ?? ''}...` : `  ${e.message}`;
      if (line !== last) process.stdout.write(`${line}\n`);
      last = line;
    },
  });
  process.stdout.write(`Knowledge base ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

await ensureKnowledgeBase(config);
const app = await buildApp({ config });
app.log.info(
  { database: app.database.kind, dataDir: config.dataDir, mail: app.mailer.mode },
  `database: ${app.database.kind === 'pglite' ? `embedded PGlite at ${config.pgliteDir}` : 'PostgreSQL (DATABASE_URL)'}; mail: ${app.mailer.mode === 'smtp' ? 'SMTP' : `.eml files in ${config.mailDir}`}`,
);

stopOnSignals(app.log, 'shutting down', () => app.close());

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`RareLens listening on ${config.publicUrl}`);
} catch (error) {
  app.log.error({ err: error }, 'could not start the HTTP server');
  await app.close();
  process.exit(1);
}
