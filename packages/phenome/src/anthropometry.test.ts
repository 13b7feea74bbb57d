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

  it('reads a weight above the 97th centile or 2 SD and a body mass index outside the 3rd-97th centiles or 2 SD', () => {
    expect(found('Body weight +2.8 SDS.')).toEqual([['HP:0004324', 'Body weight +2.8 SDS']]);
    expect(found('Growth: Wt >99th %ile, Ht 50th %ile.')).toEqual([
      ['HP:0004324', 'Wt >99th %ile'],
    ]);
    expect(found('Her weight was 41 kg (2.5 SD above the mean).')).toEqual([
      ['HP:0004324', 'weight was 41 kg (2.5 SD above the mean'],
    ]);
    // A low weight is not read (measured: the dev golds call it failure to thrive or nothing),
    // nor given to the stature beside it.
    expect(found('Weight 2nd centile, height 25th centile.')).toEqual([]);
    expect(found('Her weight was 9.1 kg (-2.5 SD).')).toEqual([]);
    // A body mass index above the 97th centile or 2 SD is obesity (WHO, CDC); below, a
    // decreased body mass index.
    expect(found('BMI 99th percentile.')).toEqual([['HP:0001513', 'BMI 99th percentile']]);
    expect(found('Her body mass index was 31 kg/m2 (+2.4 SD).')).toEqual([
      ['HP:0001513', 'body mass index was 31 kg/m2 (+2.4 SD'],
    ]);
    expect(found('BMI z-score -2.3')).toEqual([['HP:0045082', 'BMI z-score -2.3']]);
  });

  it('reads no weight within the range, at birth, of a fetus, or a change of weight', () => {
    expect(found('Weight 97th centile, BMI 90th percentile.')).toEqual([]);
    expect(found('Weight 12 kg.')).toEqual([]);
    expect(found('Birth weight 4650 g (> 97th percentile).')).toEqual([]);
    expect(found('Estimated fetal weight was above the 97th centile.')).toEqual([]);
    expect(found('Her weight gain was above the 97th centile.')).toEqual([]);
    expect(found('Weight loss of +2.5 SD.')).toEqual([]);
    expect(found('Weight-for-length +2.5 SD.')).toEqual([]);
    expect(found('Maternal BMI was above the 97th centile.')).toEqual([]);
    // "wt" in lower case is the wild type.
    expect(found('wt >99th %ile')).toEqual([]);
  });
});
