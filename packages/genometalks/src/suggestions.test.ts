import { describe, expect, it } from 'vitest';
import { suggestionsFor } from './answers.ts';
import { buildCase, buildKnowledge } from './testing/build-case.ts';

const knowledge = buildKnowledge();

// The NA12878 chrM FASTQ case ranked no gene; GenomeTalks still offered "Why is this gene first?"
// and answered "I can't answer that from this case".
describe('suggested questions', () => {
  it('offer gene questions only when the case ranked a gene', () => {
    const none = suggestionsFor({ ...buildCase(knowledge), genes: [] });
    expect(none).not.toContain('Why is this gene first?');
    expect(none.some((s) => /^Which diseases explain /.test(s))).toBe(true);
    const ranked = buildCase(knowledge);
    expect(ranked.genes.length).toBeGreaterThan(0);
    expect(suggestionsFor(ranked)[0]).toBe('Why is this gene first?');
  });
});
