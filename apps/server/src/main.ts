/** HTTP entry point: `npm start` (root) or `node --import tsx apps/server/src/main.ts`. */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './env.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

const app = await buildApp({ config });
app.log.info(
  { database: app.database.kind, dataDir: config.dataDir, mail: app.mailer.mode },
  `database: ${app.database.kind === 'pglite' ? `embedded PGlite at ${config.pgliteDir}` : 'PostgreSQL (DATABASE_URL)'}; mail: ${app.mailer.mode === 'smtp' ? 'SMTP' : `.eml files in ${config.mailDir}`}`,
);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`RareLens listening on ${config.publicUrl}`);
} catch (error) {
  app.log.error({ err: error }, 'could not start the HTTP server');
  await app.close();
  process.exit(1);
}
