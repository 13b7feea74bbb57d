import { describe, expect, it } from 'vitest';
import { findGrowthFindings } from './anthropometry.ts';

const found = (text: string): [string, string][] =>
  findGrowthFindings(text).map((f) => [f.id, text.slice(f.start, f.end)]);

describe('findGrowthFindings', () => {
  it('reads a stature or head size beyond 2 SD or outside the 3rd-97th centiles', () => {
    expect(found('Her height was 74 cm (−4.18 SD), her weight 7.2 kg (−6.84 SD).')).toEqual([
      ['HP:0004322', 'height was 74 cm (−4.18 SD'],
    ]);
    expect(found('Now he has a height of 102 cm (− 4.3 SD).')).toEqual([
      ['HP:0004322', 'height of 102 cm (− 4.3 SD'],
    ]);
    expect(found('The head circumference was 44 cm (-3 SD).')).toEqual([
      ['HP:0000252', 'head circumference was 44 cm (-3 SD'],
    ]);
    expect(found('The OFC was 58 cm (> 97th centile).')).toEqual([
      ['HP:0000256', 'OFC was 58 cm (> 97th centile'],
    ]);
    expect(found('Height 180 cm (+2.6 SD).')).toEqual([['HP:0000098', 'Height 180 cm (+2.6 SD']]);
    // The "%ile" of clinical notes is a percentile.
    expect(found('Growth: height <3rd %ile, OFC >97th%ile.')).toEqual([
      ['HP:0004322', 'height <3rd %ile'],
      ['HP:0000256', 'OFC >97th%ile'],
    ]);
    expect(found('His stature (104 cm: < 3rd percentile) was noted.')).toEqual([
      ['HP:0004322', 'stature (104 cm: < 3rd percentile'],
    ]);
    expect(found('His height was 59 cm (below the -4 SD).')).toEqual([
      ['HP:0004322', 'height was 59 cm (below the -4 SD'],
    ]);
    // The direction written after the score.
    expect(found('Head circumference was 2.5 SD below the mean.')).toEqual([
      ['HP:0000252', 'Head circumference was 2.5 SD below the mean'],
    ]);
    expect(found('Her height was 3 standard deviations above the mean.')).toEqual([
      ['HP:0000098', 'height was 3 standard deviations above the mean'],
    ]);
    expect(found('His height was 1.5 SD below the mean.')).toEqual([]);
    expect(found('His height was 2 SD below the mean.')).toEqual([]);
  });

  it('reads nothing within the range, at its limit, or without a score or centile', () => {
    expect(found('Her head circumference was 46 cm (–1.87 SD).')).toEqual([]);
    expect(found('His height was 150 cm (-2 SD).')).toEqual([]);
    expect(found('Stature is between the 3rd-10th centiles.')).toEqual([]);
    expect(found('Height 98 cm, weight 12 kg.')).toEqual([]);
    // A positive score without its sign says no direction.
    expect(found('Height differed by 2.5 SD between the twins.')).toEqual([]);
  });

  it("binds a score to its own measurement and reads only the body's stature now", () => {
    // The weight's score is not the head's.
    expect(found('Head circumference 47 cm, weight 9 kg (-3.1 SD).')).toEqual([]);
    expect(found('Femur length was below the 3rd centile.')).toEqual([]);
    expect(found('At birth her length was 44 cm (-2.5 SD).')).toEqual([]);
    expect(found('Her mid-parental height is 150 cm (-2.5 SD).')).toEqual([]);
    expect(found("His father's height was 150 cm (-2.5 SD).")).toEqual([]);
    // A growth rate is not the size.
    expect(found('Height velocity was below the 3rd centile.')).toEqual([]);
    expect(found('Her height gain was 2 cm/year (< 3rd centile).')).toEqual([]);
    expect(found('Height-for-age z-score -2.5.')).toEqual([
      ['HP:0004322', 'Height-for-age z-score -2.5'],
    ]);
  });
});
