/**
 * The variant-list requests of bench:cases (one mix for the HTTP load and for EXPLAIN ANALYZE):
 * every mode (non-clustered, filtered, clustered) with and without filters, shallow and deep
 * pages, and keyset pages (`after`, the way the web app asks for the next page).
 */
export interface ListQuery {
  name: string;
  /** Query string of GET /api/products/:id/variants for page `page`. */
  query: (page: number) => string;
  /** Pages the load picks from (uniformly). */
  pages: number;
  /** Keyset: the load first reads the page before the chosen one and asks with its nextCursor. */
  keyset?: boolean;
}

const VUS_LP_P = 'acmg=Uncertain%20significance,Likely%20pathogenic,Pathogenic';

export const LIST_QUERIES: ListQuery[] = [
  { name: 'non-clustered page 1', query: (p) => `mode=non-clustered&page=${p}`, pages: 1 },
  { name: 'non-clustered page <= 1000 (offset)', query: (p) => `mode=non-clustered&page=${p}`, pages: 1000 },
  { name: 'non-clustered next page <= 1000 (keyset)', query: (p) => `mode=non-clustered&page=${p}`, pages: 1000, keyset: true },
  { name: 'filtered default (candidates) <= 20', query: (p) => `mode=filtered&page=${p}`, pages: 20 },
  { name: 'filtered maxAf+acmg <= 20', query: (p) => `mode=filtered&maxAf=0.01&${VUS_LP_P}&page=${p}`, pages: 20 },
  { name: 'filtered consequence <= 20', query: (p) => `mode=filtered&consequence=missense_variant,stop_gained,frameshift_variant&page=${p}`, pages: 20 },
  { name: 'filtered zygosity <= 20', query: (p) => `mode=filtered&zygosity=homozygous&page=${p}`, pages: 20 },
  { name: 'filtered clinvar <= 3', query: (p) => `mode=filtered&clinvar=Pathogenic,Likely%20pathogenic&page=${p}`, pages: 3 },
  { name: 'filtered gene', query: (p) => `mode=filtered&gene=FGFR2,TTN,BRCA2&page=${p}`, pages: 1 },
  { name: 'filtered consequence next page <= 20 (keyset)', query: (p) => `mode=filtered&consequence=missense_variant,stop_gained,frameshift_variant&page=${p}`, pages: 20, keyset: true },
  { name: 'clustered page <= 20', query: (p) => `mode=clustered&page=${p}`, pages: 20 },
  { name: 'clustered consequence page <= 5', query: (p) => `mode=clustered&consequence=missense_variant,stop_gained,frameshift_variant&page=${p}`, pages: 5 },
];
