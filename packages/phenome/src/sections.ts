/**
 * Section awareness for full-text case reports: when a text has section headings, the
 * patient's phenotype lives in the title/abstract and in the case-description sections, while
 * the introduction, discussion, methods and back matter talk about the disease in general,
 * other published patients or the laboratory. Texts without headings (a clinical note, an
 * abstract, what a user types) are returned whole.
 */

export interface Region {
  start: number;
  end: number;
}

// A heading: a short line of its own, optionally numbered ("2.1. Case presentation"), with no
// sentence-final full stop (a trailing colon is allowed).
const HEADING_RE = /^[ \t]*(?:(\d+(?:\.\d+)*)\.?[ \t]+)?([A-Za-z][^\n.!?]{0,58}?)[ \t]*:?[ \t]*$/gm;

const SKIP =
  /\b(introduction|background|discussion|methods?|methodology|materials|references?|bibliography|acknowledge?ments?|conflicts?|competing|funding|contributions?|abbreviations|supplementary|supplemental|availability|ethics?|ethical|consent|literature|review|conclusions?|comments?|sequencing|analysis|analyses|assays?|statistics?|experimental)\b/i;
const KEEP =
  /\b(case|cases|patients?|proband|clinical|family|families|presentation|report|phenotypes?|examination|history|investigations|findings|features|description|subjects?|participants?|abstract|summary)\b/i;

const RESULTS = /^results?\b/i;
/** A heading that names the patients themselves ("Patient 1", "Case 2", "Family history"). */
const PATIENT_HEADING = /\b(?:patients?|proband|case|cases|famil(?:y|ies)|subjects?|individuals?|sibs?|siblings?)\b/i;

/** At least this many classified headings before the text is treated as sectioned. */
const MIN_HEADINGS = 3;

/** The regions of `text` that describe the patient(s); the whole text when it has no sections. */
export function clinicalRegions(text: string): Region[] {
  const headings: { start: number; end: number; keep: boolean | undefined }[] = [];
  /** The classification of each numbered heading ("3" -> false for "3. Discussion"). */
  const byNumber = new Map<string, boolean | undefined>();
  HEADING_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = HEADING_RE.exec(text)) !== null) {
    const number = m[1];
    const title = m[2] ?? '';
    // A heading is preceded and followed by a line break (not the first line: the title).
    if (m.index === 0 || text[m.index - 1] !== '\n') continue;
    const words = title.trim().split(/\s+/);
    if (words.length > 8) continue;
    const skip = SKIP.test(title);
    const keep = KEEP.test(title);
    // "Results", "Results and discussion": the findings come first.
    let kind = RESULTS.test(title) || (keep && !skip) ? true : skip && !keep ? false : undefined;
    // A numbered subsection belongs to its section: "3.1. Gene defects and clinical
    // manifestations" under "3. Discussion" is discussion; one that names a patient ("1.1.
    // Patient 1" under "1. Introduction") is the patient's.
    if (number !== undefined) {
      const parent = number.includes('.') ? byNumber.get(number.slice(0, number.lastIndexOf('.'))) : undefined;
      if (parent === false && !PATIENT_HEADING.test(title)) kind = false;
      byNumber.set(number, kind ?? parent);
    }
    headings.push({ start: m.index, end: m.index + m[0].length, keep: kind });
    if (m[0].length === 0) HEADING_RE.lastIndex++;
  }
  const classified = headings.filter((h) => h.keep !== undefined);
  if (classified.length < MIN_HEADINGS || !classified.some((h) => h.keep === false))
    return [{ start: 0, end: text.length }];
  const regions: Region[] = [];
  let keeping = true;
  let from = 0;
  for (const h of headings) {
    if (h.keep === undefined) continue;
    if (keeping && !h.keep) {
      if (h.start > from) regions.push({ start: from, end: h.start });
      keeping = false;
    } else if (!keeping && h.keep) {
      keeping = true;
      from = h.start;
    }
  }
  if (keeping && from < text.length) regions.push({ start: from, end: text.length });
  return regions;
}
