/**
 * PhenomeAI module: /api/phenome. The HPO comes from the built knowledge base when there is
 * one, else from the reference HPO release in RARELENS_SOURCES. Registered from app.ts.
 */
import { existsSync } from 'node:fs';
import { loadHpoKb, type Ontology } from '@rarelens/engine';
import { defaultHpoPath, llmConfigFromEnv, loadOntologyFile } from '@rarelens/phenome';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../env.ts';
import { phenomeRoutes } from './phenome.routes.ts';
import { createPhenomeService, type PhenomeService } from './phenome.service.ts';

export async function registerPhenomeModule(
  app: FastifyInstance,
  opts: {
    config: Config;
    env?: NodeJS.ProcessEnv;
    service?: PhenomeService;
    /** The HPO to read text with (app.ts: the KB's HPO with its release's synonyms). */
    ontology?: () => Promise<Ontology | null>;
  },
): Promise<void> {
  const env = opts.env ?? process.env;
  const service =
    opts.service ??
    createPhenomeService({
      ontology: opts.ontology ?? (async () => {
        if (existsSync(join(opts.config.kbDir, 'hpo-kb.json')))
          return (await loadHpoKb(opts.config.kbDir)).ontology;
        const path = defaultHpoPath(env);
        return existsSync(path) ? loadOntologyFile(path) : null;
      }),
      llm: llmConfigFromEnv(env),
    });
  await app.register(phenomeRoutes, { prefix: '/api/phenome', phenomeService: service });
}
