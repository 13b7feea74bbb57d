import { describe, expect, it } from 'vitest';
import { abbreviationSense, contextShortForm } from './abbreviations.ts';

const senseOf = (text: string, sf: string): string | null | undefined => {
  const at = text.indexOf(sf);
  return abbreviationSense(text, sf, at, at + sf.length);
};

describe('abbreviationSense', () => {
  it('reads BPD by its context: neonatal, psychiatric, fetal measurement', () => {
    expect(
      senseOf('Born at 26 weeks of gestation, he developed BPD and needed oxygen.', 'BPD'),
    ).toBe('HP:0006528');
    expect(senseOf('She has BPD with recurrent self-harm.', 'BPD')).toBe('HP:0012076');
    expect(senseOf('Fetal ultrasound at 20 weeks: BPD 45 mm.', 'BPD')).toBeNull();
  });

  it('reads TGA and CVI by their context; a primer sequence is no finding', () => {
    expect(senseOf('Echocardiography showed TGA.', 'TGA')).toBe('HP:0001669');
    expect(senseOf('An episode of TGA with memory loss.', 'TGA')).toBe('HP:0010534');
    expect(senseOf('Primer 5-AAG TGA TGG-3.', 'TGA')).toBeNull();
    expect(senseOf('She has CVI and poor visual fixation.', 'CVI')).toBe('HP:0100704');
    expect(senseOf('CVI with varicose veins.', 'CVI')).toBe('HP:0005293');
  });

  it('reads nothing without cues or with cues of two senses in the same sentence', () => {
    expect(senseOf('He had BPD.', 'BPD')).toBeNull();
    expect(senseOf('The preterm girl with BPD had mood swings.', 'BPD')).toBeNull();
  });

  it('prefers the cues of its own sentence to those of a neighbouring sentence', () => {
    const text =
      'Echocardiography showed a small shunt. Poor social interaction; ASD was diagnosed.';
    expect(senseOf(text, 'ASD')).toBe('HP:0000729');
    expect(senseOf('Echocardiography showed an ASD. Poor social interaction.', 'ASD')).toBe(
      'HP:0001631',
    );
  });

  it('reads ASD beside intellectual disability or developmental delay as autism, "an ASD" as the defect', () => {
    expect(senseOf('A boy with intellectual disability and ASD.', 'ASD')).toBe('HP:0000729');
    expect(senseOf('Global developmental delay, ASD and seizures.', 'ASD')).toBe('HP:0000729');
    expect(senseOf('Intellectual disability. He also has an ASD.', 'ASD')).toBe('HP:0001631');
    expect(senseOf('Intellectual disability and an ASD diagnosis at 3 years.', 'ASD')).toBe(
      'HP:0000729',
    );
    // Cues of both senses in one sentence: no guess.
    expect(senseOf('Intellectual disability and a small ASD.', 'ASD')).toBeNull();
  });

  it('falls back on the whole text when the neighbourhood says nothing', () => {
    const text = `Preterm infant, 900 g. ${'Feeding was slow. '.repeat(20)}At discharge BPD persisted.`;
    expect(senseOf(text, 'BPD')).toBe('HP:0006528');
  });

  it('does not know a short form that is not listed', () => {
    expect(senseOf('The VSD was closed.', 'VSD')).toBeUndefined();
    // Only the table's own keys: no inherited property of an object.
    expect(senseOf('The constructor was closed.', 'constructor')).toBeUndefined();
    expect(contextShortForm('constructor')).toBeUndefined();
    expect(contextShortForm('toString')).toBeUndefined();
    expect(contextShortForm('ASDs')).toBe('ASD');
  });
});
