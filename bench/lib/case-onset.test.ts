import { describe, expect, it } from 'vitest';
import { onsetTermOf } from './case-onset.ts';

describe('the onset term of a raw phenopacket disease', () => {
  it('takes an ontology class as is, maps an age by the HPO definitions and a gestational age to antenatal', () => {
    expect(onsetTermOf({ ontologyClass: { id: 'HP:0003577' } }, 'x')).toBe('HP:0003577');
    expect(onsetTermOf({ age: { iso8601duration: 'P3M' } }, 'x')).toBe('HP:0003593');
    expect(onsetTermOf({ age: { iso8601duration: 'P2Y' } }, 'x')).toBe('HP:0011463');
    expect(onsetTermOf({ gestationalAge: { weeks: 34, days: 0 } }, 'x')).toBe('HP:0030674');
    expect(onsetTermOf(undefined, 'x')).toBeNull();
    expect(onsetTermOf({}, 'x')).toBeNull();
  });

  it('names the file and field of an age it cannot read', () => {
    expect(() => onsetTermOf({ age: { iso8601duration: 'three years' } }, 'raw.tar.gz:a.json')).toThrow("raw.tar.gz:a.json: diseases[].onset: 'three years' is not an ISO 8601 duration");
  });
});
