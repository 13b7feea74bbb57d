/**
 * VCF header model (VCF 4.1–4.3 §1.4): meta lines, typed INFO/FORMAT definitions, FILTERs,
 * contigs and sample names, plus the annotation layouts written by VEP (CSQ) and SnpEff (ANN).
 */

import { parseStructuredMeta } from '../genome/assembly.ts';
import { normalizeContig } from '../genome/contigs.ts';
import { VcfParseError } from './errors.ts';

export type VcfFieldType = 'Integer' | 'Float' | 'Flag' | 'Character' | 'String';
/** A fixed count, or A (one per ALT), R (one per allele incl. REF), G (one per genotype), '.' (unbounded). */
/** VCF 4.5 adds the local-allele numbers LA, LR, LG, P and M. */
export type VcfFieldNumber = number | 'A' | 'R' | 'G' | '.' | 'LA' | 'LR' | 'LG' | 'P' | 'M';
const SYMBOLIC_NUMBERS = new Set(['A', 'R', 'G', '.', 'LA', 'LR', 'LG', 'P', 'M']);

export interface VcfFieldDefinition {
  id: string;
  number: VcfFieldNumber;
  type: VcfFieldType;
  description: string;
}

export interface VcfContig {
  /** Name as written in the header. */
  id: string;
  /** Canonical name (see normalizeContig). */
  name: string;
  length: number | null;
  assembly: string | null;
}

/** Layout of a functional-annotation INFO field. */
export interface AnnotationLayout {
  /** INFO key holding it ('CSQ', 'ANN', 'BCSQ', ...). */
  key: string;
  /** 'vep': VEP-style with field names from "Format: ..."; 'snpeff': the fixed ANN standard. */
  style: 'vep' | 'snpeff';
  fields: string[];
}

export interface VcfHeader {
  /** e.g. 'VCFv4.2'; null when the file has no ##fileformat line (accepted with a warning). */
  fileformat: string | null;
  /** Every '##' line, verbatim (without the line break). */
  meta: string[];
  info: Map<string, VcfFieldDefinition>;
  format: Map<string, VcfFieldDefinition>;
  filters: Map<string, string>;
  /** Contigs keyed by canonical name. */
  contigs: Map<string, VcfContig>;
  samples: string[];
  annotations: AnnotationLayout[];
  warnings: string[];
  /** Number of header lines including #CHROM. */
  lineCount: number;
}

const FIXED_COLUMNS = ['#CHROM', 'POS', 'ID', 'REF', 'ALT', 'QUAL', 'FILTER', 'INFO'];
const TYPES = new Set<VcfFieldType>(['Integer', 'Float', 'Flag', 'Character', 'String']);

function parseNumber(raw: string | undefined): VcfFieldNumber | null {
  if (raw === undefined) return null;
  if (SYMBOLIC_NUMBERS.has(raw)) return raw as VcfFieldNumber;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

function parseFieldDefinition(kind: 'INFO' | 'FORMAT', body: string, file: string, line: number, warnings: string[]): VcfFieldDefinition {
  if (!body.startsWith('<') || !body.trimEnd().endsWith('>')) {
    throw new VcfParseError(file, line, `bad header: ##${kind} must be a <...> structured line`);
  }
  const attrs = parseStructuredMeta(body);
  const id = attrs.get('ID');
  if (id === undefined || id === '') throw new VcfParseError(file, line, `bad header: ##${kind} line without ID`);
  const type = attrs.get('Type');
  if (type === undefined || !TYPES.has(type as VcfFieldType)) {
    throw new VcfParseError(file, line, `bad header: ##${kind} ${id} has Type=${type ?? '(missing)'}; expected Integer, Float, Flag, Character or String`);
  }
  const number = parseNumber(attrs.get('Number'));
  if (number === null) {
    throw new VcfParseError(file, line, `bad header: ##${kind} ${id} has Number=${attrs.get('Number') ?? '(missing)'}; expected an integer, A, R, G, ., LA, LR, LG, P or M`);
  }
  if (type === 'Flag' && typeof number === 'number' && number !== 0) {
    throw new VcfParseError(file, line, `bad header: ##${kind} ${id} is a Flag but has Number=${number} (must be 0)`);
  }
  if (type === 'Flag' && number !== 0) {
    // A symbolic Number (A, R, G, .) on a Flag is among the specification's own valid test files;
    // a Flag carries no value whatever its Number says, so it is read as Number=0 with a warning.
    warnings.push(`line ${line}: ##${kind} ${id} is a Flag with Number=${number}; read as Number=0`);
    return { id, number: 0, type: 'Flag', description: attrs.get('Description') ?? '' };
  }
  return { id, number, type: type as VcfFieldType, description: attrs.get('Description') ?? '' };
}

/** The '|'-separated field names after `marker` in a header description (quotes dropped); null without the marker. */
function fieldListAfter(description: string, marker: string): string[] | null {
  const at = description.indexOf(marker);
  if (at === -1) return null;
  return description
    .slice(at + marker.length)
    .trim()
    .replace(/["']/g, '')
    .split('|')
    .map((f) => f.trim());
}

function annotationLayout(def: VcfFieldDefinition): AnnotationLayout | null {
  const d = def.description;
  const fields = fieldListAfter(d, 'Format:');
  // VEP writes "Format: Allele|Consequence|..."; other tools (bcftools csq's BCSQ) use other
  // layouts that we do not interpret.
  if (fields !== null && fields.length >= 2 && fields[0] === 'Allele') {
    return { key: def.id, style: fields[1] === 'Annotation' ? 'snpeff' : 'vep', fields };
  }
  const snpeffFields = fieldListAfter(d, 'Functional annotations:');
  if (snpeffFields !== null) return { key: def.id, style: 'snpeff', fields: snpeffFields };
  return null;
}

/** Incremental header builder: feed '##' lines, then the '#CHROM' line. */
export class VcfHeaderBuilder {
  private readonly header: VcfHeader = {
    fileformat: null,
    meta: [],
    info: new Map(),
    format: new Map(),
    filters: new Map(),
    contigs: new Map(),
    samples: [],
    annotations: [],
    warnings: [],
    lineCount: 0,
  };

  constructor(private readonly file: string) {}

  addMeta(line: string, lineNo: number): void {
    const h = this.header;
    if (lineNo === 1) {
      if (line.startsWith('##fileformat=')) {
        const v = line.slice('##fileformat='.length).trim();
        if (!v.startsWith('VCFv')) throw new VcfParseError(this.file, lineNo, `not a VCF file: ##fileformat=${v}`);
        h.fileformat = v;
      }
    } else if (line.startsWith('##fileformat=')) {
      throw new VcfParseError(this.file, lineNo, 'bad header: ##fileformat must be the first line');
    }
    h.meta.push(line);
    const eq = line.indexOf('=');
    if (eq === -1) {
      throw new VcfParseError(this.file, lineNo, `bad header: meta line without '=': ${line.slice(0, 60)}`);
    }
    const key = line.slice(2, eq);
    const body = line.slice(eq + 1);
    switch (key) {
      case 'INFO': {
        const def = parseFieldDefinition('INFO', body, this.file, lineNo, this.header.warnings);
        h.info.set(def.id, def);
        const layout = annotationLayout(def);
        if (layout !== null) h.annotations.push(layout);
        break;
      }
      case 'FORMAT': {
        const def = parseFieldDefinition('FORMAT', body, this.file, lineNo, this.header.warnings);
        h.format.set(def.id, def);
        break;
      }
      case 'FILTER': {
        const attrs = parseStructuredMeta(body);
        const id = attrs.get('ID');
        if (id === undefined) throw new VcfParseError(this.file, lineNo, 'bad header: ##FILTER line without ID');
        h.filters.set(id, attrs.get('Description') ?? '');
        break;
      }
      case 'contig': {
        const attrs = parseStructuredMeta(body);
        const id = attrs.get('ID');
        if (id === undefined || id === '') throw new VcfParseError(this.file, lineNo, 'bad header: ##contig line without ID');
        const lengthRaw = attrs.get('length');
        let length: number | null = null;
        if (lengthRaw !== undefined) {
          length = Number(lengthRaw);
          if (!Number.isInteger(length) || length <= 0) {
            throw new VcfParseError(this.file, lineNo, `bad header: ##contig ${id} has length=${lengthRaw}`);
          }
        }
        const name = normalizeContig(id);
        h.contigs.set(name, { id, name, length, assembly: attrs.get('assembly') ?? null });
        break;
      }
      default:
        break;
    }
  }

  /** Parse the '#CHROM ...' line and return the finished header. */
  finish(line: string, lineNo: number): VcfHeader {
    const cols = line.split('\t');
    for (let i = 0; i < FIXED_COLUMNS.length; i++) {
      if (cols[i] !== FIXED_COLUMNS[i]) {
        throw new VcfParseError(
          this.file,
          lineNo,
          `bad header: column ${i + 1} of the #CHROM line is "${cols[i] ?? '(missing)'}", expected "${FIXED_COLUMNS[i]}" (columns must be tab-separated)`,
        );
      }
    }
    if (cols.length > 8) {
      if (cols[8] !== 'FORMAT') throw new VcfParseError(this.file, lineNo, `bad header: column 9 is "${cols[8]}", expected "FORMAT"`);
      const samples = cols.slice(9);
      const seen = new Set<string>();
      for (const s of samples) {
        if (s === '') throw new VcfParseError(this.file, lineNo, 'bad header: empty sample name');
        if (seen.has(s)) throw new VcfParseError(this.file, lineNo, `bad header: duplicate sample name "${s}"`);
        seen.add(s);
      }
      this.header.samples = samples;
    }
    if (this.header.fileformat === null) this.header.warnings.push('no ##fileformat line; reading as VCF 4.2');
    this.header.lineCount = lineNo;
    return this.header;
  }
}
