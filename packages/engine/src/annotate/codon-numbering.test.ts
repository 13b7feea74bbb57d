import { describe, expect, it } from 'vitest';
import { inCodonNumbering } from './annotator.ts';

describe('inCodonNumbering', () => {
  it("writes a change recorded on another isoform's numbering with the variant's codon, keeping the record's", () => {
    // FGFR2: InterVar numbers the codon 566, NM_000141 (the variant's transcript) 565.
    expect(inCodonNumbering('p.E566G', 'E', 'G', 565)).toBe("p.E565G (p.E566G in the record's numbering)");
  });

  it('leaves a change already numbered as the codon, or one it cannot read, as it is', () => {
    expect(inCodonNumbering('p.S252W', 'S', 'W', 252)).toBe('p.S252W');
    expect(inCodonNumbering('p.(S252W)', 'S', 'W', 252)).toBe('p.(S252W)');
    expect(inCodonNumbering('c.755C>G', 'S', 'W', 252)).toBe('c.755C>G');
  });
});
