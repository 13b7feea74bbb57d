/**
 * Compound-heterozygous pairs shown together: the variants of a page grouped so that each
 * variant's partners (same gene, not in cis, from VariantRow.compoundHetPartners) follow it,
 * in the order the first of them appears. A variant without a partner on the page is alone.
 */
import type { VariantRow } from '@rarelens/contract';

export function compoundHetGroups<V extends Pick<VariantRow, 'id' | 'compoundHetPartners'>>(rows: readonly V[]): V[][] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const placed = new Set<number>();
  const groups: V[][] = [];
  for (const row of rows) {
    if (placed.has(row.id)) continue;
    // The connected set of partners present on the page, in page order.
    const members = new Set<number>([row.id]);
    const queue = [row];
    while (queue.length) {
      const v = queue.pop()!;
      for (const p of v.compoundHetPartners) {
        const partner = byId.get(p);
        if (partner && !members.has(p) && !placed.has(p)) {
          members.add(p);
          queue.push(partner);
        }
      }
    }
    const group = rows.filter((r) => members.has(r.id));
    for (const r of group) placed.add(r.id);
    groups.push(group);
  }
  return groups;
}
