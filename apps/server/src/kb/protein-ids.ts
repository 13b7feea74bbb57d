/**
 * Protein IDs of genes (spec §3 Phenotype: "protein IDs"): the UniProt accessions HGNC lists for
 * each approved symbol, read from the HGNC complete set the knowledge base was built from (its
 * manifest names the file under RARELENS_SOURCES). The KB itself does not keep them; without the
 * file every gene has none (logged once).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export type ProteinIds = (symbol: string) => string[];

/** symbol -> UniProt accessions from an HGNC complete set (tab-separated, header row). */
export function parseHgncUniprot(text: string, name: string): Map<string, string[]> {
  const lines = text.split('\n');
  const header = (lines[0] ?? '').split('\t');
  const symbolAt = header.indexOf('symbol');
  const uniprotAt = header.indexOf('uniprot_ids');
  if (symbolAt < 0 || uniprotAt < 0) throw new Error(`${name}:1: no symbol or uniprot_ids column in the header`);
  const out = new Map<string, string[]>();
  for (let i = 1; i < lines.length; i++) {
    const cols = lines[i]!.split('\t');
    const symbol = cols[symbolAt];
    const ids = (cols[uniprotAt] ?? '').replace(/"/g, '').split('|').map((s) => s.trim()).filter((s) => s !== '');
    if (symbol && ids.length > 0) out.set(symbol, ids);
  }
  return out;
}

/** The HGNC file of the KB's manifest, under `sourcesDir`; null when either is missing. */
export function hgncFileOf(kbDir: string, sourcesDir: string): string | null {
  const manifestPath = join(kbDir, 'manifest.json');
  if (!existsSync(manifestPath)) return null;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { sources?: { name: string; path: string }[] };
  const hgnc = manifest.sources?.find((s) => s.name === 'hgnc');
  if (!hgnc) return null;
  const path = join(sourcesDir, hgnc.path);
  return existsSync(path) ? path : null;
}

/** Loads the lookup once, on first use. */
export function proteinIdsLoader(kbDir: string, sourcesDir: string, warn: (message: string) => void): () => Promise<ProteinIds> {
  let loaded: Promise<ProteinIds> | null = null;
  return () => {
    loaded ??= (async () => {
      const file = hgncFileOf(kbDir, sourcesDir);
      if (!file) {
        warn(`No HGNC complete set of the knowledge base under ${sourcesDir}: phenotypes are shown without protein IDs`);
        return () => [];
      }
      let buf = await readFile(file);
      if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
      const map = parseHgncUniprot(buf.toString('utf8'), file);
      return (symbol) => map.get(symbol) ?? [];
    })();
    return loaded;
  };
}
