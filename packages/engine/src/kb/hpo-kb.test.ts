import { describe, expect, it } from 'vitest';
import { Ontology, type Term } from '../hpo/ontology.ts';
import { buildHpoKb, loadHpoKb, parseFrequency, parseHpoa } from './hpo-kb.ts';
import { KbSourceError } from './types.ts';

const t = (id: string, parents: string[], extra: Partial<Term> = {}): Term => ({ id, label: id, parents, synonyms: [], obsolete: false, altIds: [], ...extra });
const ontology = new Ontology({
  version: 'test',
  terms: [
    t('HP:0000001', []),
    t('HP:0000118', ['HP:0000001']),
    t('HP:0000005', ['HP:0000001']),
    t('HP:0000006', ['HP:0000005']),
    t('HP:0003674', ['HP:0000001']),
    t('HP:0003577', ['HP:0003674']),
    t('HP:0003593', ['HP:0003674']),
    t('HP:0003581', ['HP:0003674']),
    t('HP:0001166', ['HP:0000118'], { altIds: ['HP:0001505'] }),
    t('HP:0001519', ['HP:0000118']),
    t('HP:0009999', ['HP:0000118'], { obsolete: true, replacedBy: 'HP:0001519' }),
  ],
});

const HEADER = '#version: 2025-05-06\n#hpo-version: http://purl.obolibrary.org/obo/hp/releases/2025-05-06/hp.json\ndatabase_id\tdisease_name\tqualifier\thpo_id\treference\tevidence\tonset\tfrequency\tsex\tmodifier\taspect\tbiocuration';
const row = (...f: string[]): string => f.join('\t');

describe('parseFrequency', () => {
  it('reads HPO frequency classes, n/m fractions and percentages', () => {
    expect(parseFrequency('HP:0040281')).toBeCloseTo(0.9, 6);
    expect(parseFrequency('3/4')).toBeCloseTo(0.75, 6);
    expect(parseFrequency('17%')).toBeCloseTo(0.17, 6);
    expect(parseFrequency('')).toBeUndefined();
  });

  it('rejects impossible values', () => {
    expect(() => parseFrequency('5/4')).toThrow(RangeError);
    expect(() => parseFrequency('often')).toThrow(/unrecognised/);
  });
});

describe('parseHpoa', () => {
  it('pools n/m rows of one term, resolves alt and obsolete ids and splits the aspects', () => {
    const text = [
      HEADER,
      row('OMIM:1', 'One', '', 'HP:0001505', 'PMID:1', 'PCS', '', '1/2', '', '', 'P', 'x'),
      row('OMIM:1', 'One', '', 'HP:0001166', 'PMID:2', 'PCS', '', '3/4', '', '', 'P', 'x'),
      row('OMIM:1', 'One', 'NOT', 'HP:0009999', 'PMID:2', 'PCS', '', '', '', '', 'P', 'x'),
      row('OMIM:1', 'One', '', 'HP:0000006', 'PMID:2', 'IEA', '', '', '', '', 'I', 'x'),
      row('OMIM:1', 'One', '', 'HP:0003577', 'PMID:2', 'IEA', '', '', '', '', 'C', 'x'),
    ].join('\n');
    const p = parseHpoa(text, ontology, 'test.hpoa');
    const d = p.diseases.get('OMIM:1');
    expect(p.version).toBe('2025-05-06');
    expect(d?.ann.get('HP:0001166')).toMatchObject({ n: 4, m: 6 });
    expect([...(d?.not ?? [])]).toEqual(['HP:0001519']);
    expect([...(d?.inh ?? [])]).toEqual(['HP:0000006']);
    expect([...(d?.onset.keys() ?? [])]).toEqual(['HP:0003577']);
  });

  it('pools the frequencies of onset rows (aspect C) per onset term', () => {
    const text = [
      HEADER,
      row('OMIM:2', 'Two', '', 'HP:0003593', 'PMID:1', 'PCS', '', '5/8', '', '', 'C', 'x'),
      row('OMIM:2', 'Two', '', 'HP:0003593', 'PMID:2', 'PCS', '', '7/7', '', '', 'C', 'x'),
      row('OMIM:2', 'Two', '', 'HP:0003581', 'PMID:1', 'PCS', '', '1/15', '', '', 'C', 'x'),
      row('OMIM:2', 'Two', '', 'HP:0003577', 'PMID:3', 'IEA', '', '', '', '', 'C', 'x'),
      row('OMIM:2', 'Two', 'NOT', 'HP:0003674', 'PMID:3', 'IEA', '', '', '', '', 'C', 'x'),
    ].join('\n');
    const d = parseHpoa(text, ontology, 'test.hpoa').diseases.get('OMIM:2');
    expect([...(d?.onset.keys() ?? [])]).toEqual(['HP:0003593', 'HP:0003581', 'HP:0003577']);
    expect(d?.onset.get('HP:0003593')).toMatchObject({ n: 12, m: 15 });
    expect(d?.onset.get('HP:0003581')).toMatchObject({ n: 1, m: 15 });
    expect(d?.onset.get('HP:0003577')).toMatchObject({ n: 0, m: 0, other: null });
  });

  it('names the file and line of an onset row with a malformed frequency', () => {
    const text = [HEADER, row('OMIM:2', 'Two', '', 'HP:0003593', 'PMID:1', 'PCS', '', 'most', '', '', 'C', 'x')].join('\n');
    expect(() => parseHpoa(text, ontology, 'test.hpoa')).toThrow(/test\.hpoa:4: frequency column: unrecognised frequency 'most'/);
  });

  it('names the file and line of a malformed row', () => {
    const text = [HEADER, row('OMIM:1', 'One', '', 'HP:0001166', 'PMID:1', 'PCS', '', 'sometimes', '', '', 'P', 'x')].join('\n');
    expect(() => parseHpoa(text, ontology, 'test.hpoa')).toThrow(KbSourceError);
    expect(() => parseHpoa(text, ontology, 'test.hpoa')).toThrow(/test\.hpoa:4: frequency column/);
  });

  it('rejects a database id that is not OMIM, ORPHA or DECIPHER', () => {
    const text = [HEADER, row('MIM:1', 'One', '', 'HP:0001166', 'PMID:1', 'PCS', '', '', '', '', 'P', 'x')].join('\n');
    expect(() => parseHpoa(text, ontology, 'test.hpoa')).toThrow(/test\.hpoa:4: database_id 'MIM:1'/);
  });
});

describe('buildHpoKb: diseases known only by name', () => {
  it('keeps gene-linked unannotated diseases and the OMIM diseases only Mondo names, with the features their titles state', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const src = mkdtempSync(join(tmpdir(), 'hpo-kb-named-'));
    const out = mkdtempSync(join(tmpdir(), 'hpo-kb-named-out-'));
    mkdirSync(join(src, 'hpo'));
    mkdirSync(join(src, 'diseases'));
    const term = (id: string, name: string, parent?: string): string => `[Term]\nid: ${id}\nname: ${name}\n${parent ? `is_a: ${parent}\n` : ''}`;
    writeFileSync(
      join(src, 'hpo', 'hp.obo'),
      ['format-version: 1.2\ndata-version: hp/releases/2025-05-06/hp.obo\n', term('HP:0000001', 'All'), term('HP:0000118', 'Phenotypic abnormality', 'HP:0000001'), term('HP:0001250', 'Seizure', 'HP:0000118'), term('HP:0001263', 'Global developmental delay', 'HP:0000118')].join('\n'),
    );
    const header = 'database_id\tdisease_name\tqualifier\thpo_id\treference\tevidence\tonset\tfrequency\tsex\tmodifier\taspect\tbiocuration';
    writeFileSync(join(src, 'hpo', 'phenotype.hpoa'), `#version: 2025-05-06\n${header}\nOMIM:1\tEpilepsy 1\t\tHP:0001250\tPMID:1\tPCS\t\t\t\t\tP\tx\n`);
    writeFileSync(join(src, 'hpo', 'genes_to_disease.txt'), 'ncbi_gene_id\tgene_symbol\tassociation_type\tdisease_id\tsource\n1\tG1\tMENDELIAN\tOMIM:1\tx\n2\tG2\tMENDELIAN\tOMIM:2\tx\n');
    writeFileSync(
      join(src, 'diseases', 'mondo_hasdbxref_omim.sssom.tsv'),
      'subject_id\tsubject_label\tpredicate_id\tobject_id\tobject_label\tmapping_justification\nMONDO:1\tepilepsy 1\tx\tOMIM:1\tepilepsy 1\tx\nMONDO:2\tepilepsy 2\tx\tOMIM:2\tepilepsy 2\tx\nMONDO:3\tseizure disorder 3\tx\tOMIM:3\tseizure disorder 3\tx\n',
    );
    const noop = (): void => {};
    await buildHpoKb({ sourcesDir: src, outDir: out, log: noop, progress: noop, addSource: noop, reportMissing: noop, warn: noop });
    const kb = await loadHpoKb(out);
    expect(kb.namedDiseases.has('OMIM:1')).toBe(false);
    expect(kb.namedDiseases.get('OMIM:2')).toMatchObject({ name: 'epilepsy 2', genes: ['G2'] });
    expect(kb.namedDiseases.get('OMIM:3')).toMatchObject({ name: 'seizure disorder 3', genes: [], nameTerms: ['HP:0001250'], mondo: 'MONDO:3' });
  });
});

describe('onset frequencies in the KB file', () => {
  it('writes each onset term with its pooled frequency; format 2 files (none) load with frequencies unknown; older formats fail by name', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const src = mkdtempSync(join(tmpdir(), 'hpo-kb-onset-'));
    const out = mkdtempSync(join(tmpdir(), 'hpo-kb-onset-out-'));
    mkdirSync(join(src, 'hpo'));
    const term = (id: string, name: string, parent?: string): string => `[Term]\nid: ${id}\nname: ${name}\n${parent ? `is_a: ${parent}\n` : ''}`;
    writeFileSync(
      join(src, 'hpo', 'hp.obo'),
      [
        'format-version: 1.2\ndata-version: hp/releases/2025-05-06/hp.obo\n',
        term('HP:0000001', 'All'),
        term('HP:0000118', 'Phenotypic abnormality', 'HP:0000001'),
        term('HP:0001250', 'Seizure', 'HP:0000118'),
        term('HP:0003674', 'Onset', 'HP:0000001'),
        term('HP:0003593', 'Infantile onset', 'HP:0003674'),
        term('HP:0003581', 'Adult onset', 'HP:0003674'),
        term('HP:0003577', 'Congenital onset', 'HP:0003674'),
      ].join('\n'),
    );
    const rows = [
      row('OMIM:1', 'One', '', 'HP:0001250', 'PMID:1', 'PCS', '', '', '', '', 'P', 'x'),
      row('OMIM:1', 'One', '', 'HP:0003593', 'PMID:1', 'PCS', '', '12/15', '', '', 'C', 'x'),
      row('OMIM:1', 'One', '', 'HP:0003581', 'PMID:1', 'PCS', '', '1/15', '', '', 'C', 'x'),
      row('OMIM:1', 'One', '', 'HP:0003577', 'PMID:2', 'IEA', '', '', '', '', 'C', 'x'),
    ];
    writeFileSync(join(src, 'hpo', 'phenotype.hpoa'), [HEADER, ...rows].join('\n') + '\n');
    const noop = (): void => {};
    await buildHpoKb({ sourcesDir: src, outDir: out, log: noop, progress: noop, addSource: noop, reportMissing: noop, warn: noop });
    const d = (await loadHpoKb(out)).diseaseById.get('OMIM:1');
    expect(new Set(d?.onset)).toEqual(new Set(['HP:0003593', 'HP:0003581', 'HP:0003577']));
    expect(d?.onsetFrequency).toEqual({ 'HP:0003593': 0.8, 'HP:0003581': 1 / 15 });

    // A format-2 file: the same without the onset frequencies.
    const file = JSON.parse(readFileSync(join(out, 'hpo-kb.json'), 'utf8')) as { format: number; diseases: unknown[][] };
    const old = mkdtempSync(join(tmpdir(), 'hpo-kb-onset-v2-'));
    writeFileSync(join(old, 'hpo-kb.json'), JSON.stringify({ ...file, format: 2, diseases: file.diseases.map((r) => r.slice(0, 8)) }));
    const d2 = (await loadHpoKb(old)).diseaseById.get('OMIM:1');
    expect(new Set(d2?.onset)).toEqual(new Set(['HP:0003593', 'HP:0003581', 'HP:0003577']));
    expect(d2?.onsetFrequency).toBeUndefined();

    writeFileSync(join(old, 'hpo-kb.json'), JSON.stringify({ ...file, format: 1 }));
    await expect(loadHpoKb(old)).rejects.toThrow(/hpo-kb\.json: HPO KB format 1, expected 2 or 3: rebuild the KB/);
  });
});
