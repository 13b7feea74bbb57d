/**
 * Contracts of the knowledge-base (KB) build. `rarelens kb build` runs each step against a
 * fresh temporary directory; only when every required step succeeds is that directory renamed
 * into place, so a failed or corrupt source never leaves a partial KB.
 */

/** One ingested source file, recorded in the KB manifest. */
export interface KbSourceEntry {
  /** Stable name, e.g. 'hpo-ontology', 'clinvar-grch38'. */
  name: string;
  /** Path relative to the sources directory. */
  path: string;
  /** The release the file states (e.g. '2025-05-06'), or 'unknown'. */
  version: string;
  sha256: string;
  /** Records read, and records that could not be used (e.g. failed to lift), when meaningful. */
  records?: number;
  skipped?: number;
  notes?: string;
}

export interface KbManifest {
  kbFormat: number;
  builtAt: string;
  softwareVersion: string;
  sources: KbSourceEntry[];
  /** Optional sources that were not found: reported, not fatal. */
  missing: { name: string; reason: string }[];
  warnings: string[];
}

export interface KbBuildContext {
  /** Directory holding the input files (RARELENS_SOURCES). */
  sourcesDir: string;
  /** Temporary output directory of this build; steps write their files here. */
  outDir: string;
  signal?: AbortSignal;
  log(message: string): void;
  /** Progress of a long step; `total` when known. */
  progress(step: string, done: number, total?: number): void;
  addSource(entry: KbSourceEntry): void;
  reportMissing(name: string, reason: string): void;
  warn(message: string): void;
}

/** A failure that names the source file and, when known, the line. Aborts the whole build. */
export class KbSourceError extends Error {
  constructor(
    readonly source: string,
    message: string,
    readonly line?: number,
  ) {
    super(`${source}${line != null ? `:${line}` : ''}: ${message}`);
    this.name = 'KbSourceError';
  }
}
