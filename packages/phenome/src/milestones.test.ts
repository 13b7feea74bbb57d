import { describe, expect, it } from 'vitest';
import { findMilestoneDelays } from './milestones.ts';

const found = (text: string): [string, number][] =>
  findMilestoneDelays(text).map((f) => [f.id, f.months]);

describe('findMilestoneDelays', () => {
  it('reports a milestone reached past the WHO window with the age in months', () => {
    expect(found('The girl walked at 26 months.')).toEqual([['HP:0031936', 26]]);
    expect(found('He did not walk until the age of 3 years and 2 months.')).toEqual([
      ['HP:0031936', 38],
    ]);
    expect(found('She sat without support at 12 months and stood alone at 20 months.')).toEqual([
      ['HP:0025336', 12],
      ['HP:0025335', 20],
    ]);
    expect(found('He began walking at 2½ years; he said his first words at 30 months.')).toEqual([
      ['HP:0031936', 30],
      ['HP:0000750', 30],
    ]);
    // A range of months after the years: the lower bound.
    expect(found('He could walk at the age of 1 year and 8 to 9 months.')).toEqual([
      ['HP:0031936', 20],
    ]);
  });

  it('reads "first words at" and an age in years after "age" without its unit', () => {
    expect(found('First words at 30 months.')).toEqual([['HP:0000750', 30]]);
    expect(found('Her first words were at 2 years.')).toEqual([['HP:0000750', 24]]);
    expect(found('He did not speak until age 4.')).toEqual([['HP:0000750', 48]]);
    expect(found('She walked at age 3 and sat at age 1.')).toEqual([
      ['HP:0031936', 36],
      ['HP:0025336', 12],
    ]);
    // "age 1" of walking is inside the window; a number without "age" still needs its unit.
    expect(found('He walked at age 1.')).toEqual([]);
    expect(found('He walked at 3.')).toEqual([]);
  });

  it('reads a milestone not yet reached at an age past the window as delayed', () => {
    expect(found('She was not walking at 2 years.')).toEqual([['HP:0031936', 24]]);
    expect(found('He was not yet sitting at 12 months.')).toEqual([['HP:0025336', 12]]);
    expect(found('He has no words at 2 years; he is still not standing at 20 months.')).toEqual([
      ['HP:0000750', 24],
      ['HP:0025335', 20],
    ]);
    // Not yet reached inside the window says nothing.
    expect(found('He was not walking at 12 months and had no words at 15 months.')).toEqual([]);
  });

  it('reports nothing inside the normal window or at its last month', () => {
    expect(found('She walked independently at 13 months and sat at 7 months.')).toEqual([]);
    expect(found('He walked at 18 months; first words at 15 months.')).toEqual([]);
    expect(found('Sat unsupported at 9 months.')).toEqual([]);
  });

  it('needs an age unit and a plausible child age', () => {
    expect(found('She walked at 3 km/h.')).toEqual([]);
    expect(found('He walked 200 metres at 14 years.')).toEqual([]);
    expect(found('The patient walked until 45 years of age, then lost ambulation.')).toEqual([]);
  });

  it('gives exact offsets of the statement', () => {
    const text = 'History: she first walked at 2 years.';
    const [f] = findMilestoneDelays(text);
    expect(f && text.slice(f.start, f.end)).toBe('walked at 2 years');
  });
});
