/**
 * rarelens phenome: clinical free text -> HPO terms (PhenomeAI).
 *
 *   rarelens phenome --text "Floppy infant with fits; no cataracts."
 *   rarelens phenome --batch IN.jsonl --out OUT.jsonl     # {id, text} -> {id, terms, modifiers}
 *
 * Output: `terms` are the phenotypic abnormalities (HP:0000118, what a case profile takes);
 * `modifiers` the other HPO branches named in the text (inheritance, onset, course, ...).
 *
 * Without options it runs the shipped configuration (SHIPPED_PHENOME_OPTIONS: the one the API
 * uses and bench:phenome measures). Options: --hpo FILE (hp.json[.gz] / hp.obo; default
 * $RARELENS_SOURCES/hpo/...), --nested MODE, --whole-text, --no-llm (ignore
 * LLM_BASE_URL/LLM_API_KEY/LLM_MODEL even when set).
 */
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Ontology } from '@rarelens/engine';
import {
  createPhenome,
  defaultHpoPath,
  extractWithLlm,
  llmConfigFromEnv,
  loadOntologyFile,
  type LlmConfig,
  type Phenome,
  type PhenomeExtraction,
  type PhenomeOptions,
} from '@rarelens/phenome';
import { parseCommandArgs, runCommand, stringOptions, UsageError } from '../args.ts';

const USAGE = `Usage:
  rarelens phenome --text "clinical text"            print {"terms","modifiers"} as JSON
  rarelens phenome --batch IN.jsonl --out OUT.jsonl  one {"id","text"} per line ->
                                                     {"id","terms","modifiers"}
"terms" are the phenotypic abnormalities (symptoms and signs); "modifiers" are the other HPO
terms named in the text (mode of inheritance, onset, clinical course, variability), each with
the same span, negation and confidence.
Options:
  --hpo FILE   HPO ontology (hp.json, hp.json.gz or hp.obo; default ${'$'}RARELENS_SOURCES/hpo/hp.v2026-01-08.json.gz)
  --nested MODE  general terms named inside longer mentions: compositional (default: site-qualified
                 tumours, lettered subtypes), all, or none (longest mention only)
  --whole-text   read every section of a full text with headings (default: only the title/abstract
                 and case sections)
  --no-llm       do not call the LLM endpoint even when LLM_BASE_URL, LLM_API_KEY, LLM_MODEL are set
Without --nested/--whole-text the shipped configuration runs: the one the API uses and
npm run bench:phenome measures.`;

interface Args {
  text?: string;
  batch?: string;
  out?: string;
  hpo?: string;
  nested?: PhenomeOptions['nested'];
  wholeText: boolean;
  llm: boolean;
}

const OPTIONS = {
  ...stringOptions('text', 'batch', 'out', 'hpo', 'nested'),
  'whole-text': { type: 'boolean' },
  'no-llm': { type: 'boolean' },
} as const;

const NESTED_MODES: Record<string, PhenomeOptions['nested']> = {
  compositional: 'compositional',
  all: true,
  none: false,
};

function parsePhenomeArgs(argv: readonly string[]): Args {
  const { values: v } = parseCommandArgs(argv, { options: OPTIONS });
  if (v.nested !== undefined && !(v.nested in NESTED_MODES))
    throw new UsageError(`--nested must be compositional, all or none, got '${v.nested}'`);
  if ((v.text === undefined) === (v.batch === undefined))
    throw new UsageError('give exactly one of --text or --batch');
  if (v.batch !== undefined && v.out === undefined)
    throw new UsageError('--batch needs --out OUT.jsonl');
  return {
    text: v.text,
    batch: v.batch,
    out: v.out,
    hpo: v.hpo,
    nested: v.nested === undefined ? undefined : NESTED_MODES[v.nested],
    wholeText: v['whole-text'] === true,
    llm: v['no-llm'] !== true,
  };
}

interface Extractor {
  run(text: string): Promise<PhenomeExtraction>;
}

function makeExtractor(
  phenome: Phenome,
  ontology: Ontology,
  llm: LlmConfig | undefined,
): Extractor {
  return {
    async run(text: string): Promise<PhenomeExtraction> {
      if (!llm) return phenome.extractFindings(text);
      const res = await extractWithLlm(phenome, ontology, text, llm);
      if (res.llm.error)
        console.error(
          `rarelens phenome: LLM assist not used (${res.llm.error}); offline result kept`,
        );
      return { terms: res.terms, modifiers: res.modifiers };
    },
  };
}

/** Validates one batch line; errors name the file and line. */
function parseBatchLine(
  file: string,
  lineNo: number,
  line: string,
): { id: string | number; text: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new Error(
      `${file}:${lineNo}: invalid JSON (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${file}:${lineNo}: expected a JSON object {"id", "text"}`);
  const rec = value as { id?: unknown; text?: unknown };
  if (typeof rec.id !== 'string' && typeof rec.id !== 'number')
    throw new Error(`${file}:${lineNo}: field "id" must be a string or number`);
  if (typeof rec.text !== 'string')
    throw new Error(`${file}:${lineNo}: field "text" must be a string`);
  return { id: rec.id, text: rec.text };
}

async function runBatch(input: string, output: string, extractor: Extractor): Promise<number> {
  if (!existsSync(input)) throw new Error(`${input}: file not found`);
  // Written to a side file and renamed at the end: a failed run leaves no partial output.
  const partial = `${output}.partial`;
  const out = createWriteStream(partial);
  const rl = createInterface({ input: createReadStream(input, 'utf8'), crlfDelay: Infinity });
  let lineNo = 0;
  let records = 0;
  try {
    for await (const line of rl) {
      lineNo++;
      if (line.trim() === '') continue;
      const rec = parseBatchLine(input, lineNo, line);
      const { terms, modifiers } = await extractor.run(rec.text);
      const json = JSON.stringify({ id: rec.id, terms, modifiers });
      if (!out.write(`${json}\n`)) await once(out, 'drain');
      records++;
    }
    out.end();
    await once(out, 'finish');
  } catch (err) {
    rl.close();
    out.end();
    await once(out, 'close');
    rmSync(partial, { force: true });
    throw err;
  }
  renameSync(partial, output);
  console.error(`rarelens phenome: ${records} records -> ${output}`);
  return 0;
}

/** Entry point: returns the exit code (2 = usage error). */
export function run(argv: string[]): Promise<number> {
  return runCommand('phenome', USAGE, argv, () => extractTerms(parsePhenomeArgs(argv)));
}

async function extractTerms(args: Args): Promise<number> {
  const ontology = loadOntologyFile(args.hpo ?? defaultHpoPath());
  // Only what was asked for overrides the shipped configuration (createPhenome's defaults).
  const phenome = createPhenome(ontology, {
    ...(args.nested !== undefined ? { nested: args.nested } : {}),
    ...(args.wholeText ? { clinicalSectionsOnly: false } : {}),
  });
  const llm = args.llm ? llmConfigFromEnv() : undefined;
  const extractor = makeExtractor(phenome, ontology, llm);
  if (args.text !== undefined) {
    console.log(JSON.stringify(await extractor.run(args.text), null, 2));
    return 0;
  }
  return runBatch(args.batch as string, args.out as string, extractor);
}
