/**
 * PED (linkage pedigree) files: six whitespace-separated columns per person
 *   family  individual  father  mother  sex  phenotype
 * with father/mother '0' (or '.') when not in the pedigree, sex 1 = male, 2 = female, anything
 * else unknown, and phenotype 1 = unaffected, 2 = affected, 0 / -9 / '.' = unknown. Lines
 * starting with '#' are comments (a '#family_id ...' header is accepted); extra columns are
 * allowed and ignored (PLINK/peddy style). Every problem names the file, the line and the field.
 */
import type { Sex } from '../types.ts';

export type AffectedStatus = 'affected' | 'unaffected' | 'unknown';

/** One person of a pedigree. Father/mother are sample ids, null when not in the pedigree. */
export interface PedigreeMember {
  family: string;
  id: string;
  father: string | null;
  mother: string | null;
  sex: Sex;
  status: AffectedStatus;
}

export interface Pedigree {
  /** Where it came from (file name, 'editor', 'single sample'). */
  source: string;
  members: PedigreeMember[];
}

const PED_FIELDS = ['family', 'individual', 'father', 'mother', 'sex', 'phenotype'] as const;
export type PedField = (typeof PED_FIELDS)[number];

/** A malformed PED line: file, 1-based line, the field at fault and why. */
export class PedParseError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: PedField | null,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${field ? `${field}: ` : ''}${reason}`);
    this.name = 'PedParseError';
  }
}

const MISSING_PARENT = new Set(['0', '.', '']);

function parseSex(raw: string): Sex | null {
  switch (raw.toLowerCase()) {
    case '1':
    case 'm':
    case 'male':
      return 'male';
    case '2':
    case 'f':
    case 'female':
      return 'female';
    case '0':
    case '-9':
    case '.':
    case 'other':
    case 'unknown':
      return 'unknown';
    default:
      return null;
  }
}

function parseStatus(raw: string): AffectedStatus | null {
  switch (raw.toLowerCase()) {
    case '2':
    case 'affected':
      return 'affected';
    case '1':
    case 'unaffected':
      return 'unaffected';
    case '0':
    case '-9':
    case '.':
    case 'unknown':
      return 'unknown';
    default:
      return null;
  }
}

/**
 * Parses PED text. Throws PedParseError on the first malformed line (wrong column count, bad sex
 * or phenotype code, duplicate individual, a person listed as their own parent). Relations
 * between people (parents present, sexes, cycles) are checked by `checkFamily`.
 */
export function parsePed(text: string, file = 'pedigree.ped'): Pedigree {
  const members: PedigreeMember[] = [];
  const seen = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = (lines[i] ?? '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const cols = line.split(/\s+/);
    if (cols.length < 6) {
      throw new PedParseError(file, lineNo, PED_FIELDS[cols.length] ?? null, `${cols.length} columns, expected 6 (family, individual, father, mother, sex, phenotype)`);
    }
    const [family, id, father, mother, sexRaw, phenoRaw] = cols as [string, string, string, string, string, string];
    if (MISSING_PARENT.has(id)) throw new PedParseError(file, lineNo, 'individual', `"${id}" is not a sample id`);
    const sex = parseSex(sexRaw);
    if (sex === null) throw new PedParseError(file, lineNo, 'sex', `"${sexRaw}" for ${id}: expected 1 (male), 2 (female) or 0 (unknown)`);
    const status = parseStatus(phenoRaw);
    if (status === null) {
      throw new PedParseError(file, lineNo, 'phenotype', `"${phenoRaw}" for ${id}: expected 2 (affected), 1 (unaffected) or 0/-9 (unknown); quantitative phenotypes are not supported`);
    }
    const dup = seen.get(id);
    if (dup !== undefined) throw new PedParseError(file, lineNo, 'individual', `${id} is listed twice (first on line ${dup})`);
    seen.set(id, lineNo);
    const fa = MISSING_PARENT.has(father) ? null : father;
    const mo = MISSING_PARENT.has(mother) ? null : mother;
    if (fa === id) throw new PedParseError(file, lineNo, 'father', `${id} is given as its own father`);
    if (mo === id) throw new PedParseError(file, lineNo, 'mother', `${id} is given as its own mother`);
    if (fa !== null && fa === mo) throw new PedParseError(file, lineNo, 'mother', `${id} has ${fa} as both father and mother`);
    members.push({ family, id, father: fa, mother: mo, sex, status });
  }
  if (members.length === 0) throw new PedParseError(file, lines.length, null, 'no individuals: the PED file is empty');
  return { source: file, members };
}

/** Writes a pedigree as PED text (one line per member, tab-separated). */
export function formatPed(p: Pedigree): string {
  const sex = (s: Sex): string => (s === 'male' ? '1' : s === 'female' ? '2' : '0');
  const status = (s: AffectedStatus): string => (s === 'affected' ? '2' : s === 'unaffected' ? '1' : '0');
  return p.members.map((m) => [m.family, m.id, m.father ?? '0', m.mother ?? '0', sex(m.sex), status(m.status)].join('\t')).join('\n') + '\n';
}
