/**
 * The small pedigree editor's model: one row per sequenced person, described by relation to the
 * proband. It becomes a PED file (the API's `pedigreeFile`), so the editor and an uploaded PED
 * take the same path through the server's checks.
 */
export type EditorRelation = 'proband' | 'father' | 'mother' | 'sibling' | 'other';
export type EditorSex = 'male' | 'female' | 'unknown';
export type EditorStatus = 'affected' | 'unaffected' | 'unknown';

export interface EditorMember {
  sample: string;
  relation: EditorRelation;
  sex: EditorSex;
  status: EditorStatus;
}

export const RELATION_LABELS: Readonly<Record<EditorRelation, string>> = {
  proband: 'Proband',
  father: 'Father',
  mother: 'Mother',
  sibling: 'Sibling (same parents)',
  other: 'Other relative',
};

/** Problems with the rows, each naming the sample (empty when the pedigree is consistent). */
export function checkEditorMembers(members: readonly EditorMember[]): string[] {
  const problems: string[] = [];
  const probands = members.filter((m) => m.relation === 'proband');
  if (probands.length !== 1) problems.push(probands.length === 0 ? 'Mark one sample as the proband' : `Only one proband: ${probands.map((m) => m.sample || '(unnamed)').join(', ')}`);
  const seen = new Set<string>();
  members.forEach((m, i) => {
    const name = m.sample.trim();
    if (!name) problems.push(`Row ${i + 1}: enter the sample name as in the VCF`);
    else if (/\s/.test(name)) problems.push(`${name}: a sample name cannot contain spaces`);
    else if (seen.has(name)) problems.push(`${name} is listed twice`);
    seen.add(name);
  });
  for (const [relation, sex] of [['father', 'female'], ['mother', 'male']] as const) {
    const ms = members.filter((m) => m.relation === relation);
    if (ms.length > 1) problems.push(`Only one ${relation}: ${ms.map((m) => m.sample).join(', ')}`);
    for (const m of ms) if (m.sex === sex) problems.push(`${m.sample || `The ${relation}`} is the ${relation} but is marked ${sex}`);
  }
  return problems;
}

/** PED text of the rows: family id, sample, father, mother, sex (1/2/0), phenotype (2/1/0). */
export function editorToPed(members: readonly EditorMember[], familyId: string): string {
  const fam = familyId.trim().replace(/\s+/g, '_') || 'family';
  const father = members.find((m) => m.relation === 'father')?.sample.trim() ?? '0';
  const mother = members.find((m) => m.relation === 'mother')?.sample.trim() ?? '0';
  const sex = (s: EditorSex): string => (s === 'male' ? '1' : s === 'female' ? '2' : '0');
  const status = (s: EditorStatus): string => (s === 'affected' ? '2' : s === 'unaffected' ? '1' : '0');
  return (
    members
      .map((m) => {
        const hasParents = m.relation === 'proband' || m.relation === 'sibling';
        return [fam, m.sample.trim(), hasParents ? father : '0', hasParents ? mother : '0', sex(m.sex), status(m.status)].join('\t');
      })
      .join('\n') + '\n'
  );
}

/** Reads the #CHROM line of a VCF (plain or gzip/BGZF) in the browser; [] when it cannot. */
export async function readVcfSampleNames(file: Blob, maxBytes = 4 << 20): Promise<string[]> {
  try {
    return await readSampleLine(file, maxBytes);
  } catch {
    // A Blob without streams (older browsers) or an unreadable file: the user types the names.
    return [];
  }
}

async function readSampleLine(file: Blob, maxBytes: number): Promise<string[]> {
  const head = file.slice(0, maxBytes);
  const magic = new Uint8Array(await head.slice(0, 2).arrayBuffer());
  let stream: ReadableStream<Uint8Array> = head.stream();
  // DOM typings declare the gzip stream's input as BufferSource, which a Uint8Array stream is.
  if (magic[0] === 0x1f && magic[1] === 0x8b) stream = stream.pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value) text += decoder.decode(value, { stream: true });
      const at = text.indexOf('#CHROM');
      if (at >= 0) {
        const end = text.indexOf('\n', at);
        if (end >= 0 || done) return text.slice(at, end >= 0 ? end : undefined).replace(/\r$/, '').split('\t').slice(9);
      }
      if (done || text.length > maxBytes * 4) return [];
    }
  } catch {
    // A truncated gzip member or an unreadable file: the user types the names.
    return [];
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
