import { describe, expect, it } from 'vitest';
import { parseHgncUniprot } from './protein-ids.ts';

describe('parseHgncUniprot', () => {
  it('maps approved symbols to their UniProt accessions (| separated, quotes dropped)', () => {
    const text = [
      'hgnc_id\tsymbol\tname\tuniprot_ids',
      'HGNC:3689\tFGFR2\tfibroblast growth factor receptor 2\tP21802',
      'HGNC:5\tA1BG\talpha-1-B glycoprotein\t"P04217|Q8N5X9"',
      'HGNC:9\tNOPROT\tno product\t',
      '',
    ].join('\n');
    const map = parseHgncUniprot(text, 'hgnc.txt');
    expect(map.get('FGFR2')).toEqual(['P21802']);
    expect(map.get('A1BG')).toEqual(['P04217', 'Q8N5X9']);
    expect(map.has('NOPROT')).toBe(false);
  });

  it('names the file and line when the columns are missing', () => {
    expect(() => parseHgncUniprot('hgnc_id\tsymbol\n', 'genes/hgnc.txt.gz')).toThrow('genes/hgnc.txt.gz:1: no symbol or uniprot_ids column');
  });
});
