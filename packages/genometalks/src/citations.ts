/**
 * Citations and the case screens they open: the gene page, the disease (phenotype) page, the
 * variant evidence drawer on the variant list, and the case's terms in the Diagnose module.
 */
import type { TermRef } from '@rarelens/contract';
import type { CaseDisease, CaseGene, CaseVariant, Citation } from './context.ts';

const base = (productId: string) => `/my-product/${encodeURIComponent(productId)}`;

export const hrefs = {
  gene: (productId: string, symbol: string) => `${base(productId)}/genes/${encodeURIComponent(symbol)}`,
  disease: (productId: string, diseaseId: string) => `${base(productId)}/phenotypes/${encodeURIComponent(diseaseId)}`,
  variant: (productId: string, v: Pick<CaseVariant, 'id' | 'gene'>) => {
    const q = new URLSearchParams({ view: 'variants', mode: 'non-clustered' });
    if (v.gene) q.set('gene', v.gene);
    q.set('variant', String(v.id));
    return `${base(productId)}/phenotypes?${q.toString()}`;
  },
  term: (productId: string, termId: string) => `${base(productId)}/diagnose?${new URLSearchParams({ term: termId }).toString()}`,
};

/** Short display name of a variant: "FGFR2 c.755C>G p.(Ser252Trp)" or its locus. */
export function variantName(v: Pick<CaseVariant, 'gene' | 'hgvsC' | 'hgvsP' | 'chrom' | 'pos' | 'ref' | 'alt'>): string {
  const c = v.hgvsC ? v.hgvsC.replace(/^[^:]*:/, '') : null;
  const locus = `${v.chrom}:${v.pos} ${v.ref}>${v.alt}`;
  return [v.gene, c ?? locus, v.hgvsP].filter((x): x is string => !!x).join(' ');
}

/** Collects an answer's lines and its citations (each cited once, in order of first use). */
export class AnswerBuilder {
  readonly lines: string[] = [];
  readonly citations: Citation[] = [];
  private readonly keys = new Set<string>();

  constructor(readonly productId: string) {}

  line(text: string): this {
    this.lines.push(text);
    return this;
  }

  item(text: string): this {
    this.lines.push(`- ${text}`);
    return this;
  }

  cite(c: Citation): this {
    const key = `${c.kind}|${c.id}`;
    if (!this.keys.has(key)) {
      this.keys.add(key);
      this.citations.push(c);
    }
    return this;
  }

  gene(g: Pick<CaseGene, 'symbol' | 'name'>): this {
    return this.cite({ kind: 'gene', id: g.symbol, label: g.name ? `${g.symbol} (${g.name})` : g.symbol, href: hrefs.gene(this.productId, g.symbol) });
  }

  disease(d: Pick<CaseDisease, 'id' | 'name'>): this {
    return this.cite({ kind: 'disease', id: d.id, label: `${d.name} (${d.id})`, href: hrefs.disease(this.productId, d.id) });
  }

  term(t: TermRef): this {
    return this.cite({ kind: 'hpo', id: t.id, label: `${t.label} (${t.id})`, href: hrefs.term(this.productId, t.id) });
  }

  variant(v: CaseVariant): this {
    return this.cite({ kind: 'variant', id: String(v.id), label: variantName(v), href: hrefs.variant(this.productId, v) });
  }

  clinvar(v: CaseVariant): this {
    const r = v.clinvarRecord;
    if (!r) return this;
    return this.cite({
      kind: 'clinvar',
      id: r.id ?? `variant-${v.id}`,
      label: `ClinVar ${r.id ? `${r.id}: ` : ''}${r.significance.replace(/_/g, ' ')}`,
      href: hrefs.variant(this.productId, v),
    });
  }

  acmg(v: CaseVariant, code: string): this {
    return this.cite({ kind: 'acmg', id: `${v.id}:${code}`, label: `ACMG ${code} (${variantName(v)})`, href: hrefs.variant(this.productId, v) });
  }

  text(): string {
    return this.lines.join('\n');
  }
}
