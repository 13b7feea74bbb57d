import type { FamilyMemberView } from '@rarelens/contract';

const SIZE = 28;
const GAP_X = 96;
const GAP_Y = 92;
const PAD = 36;

interface Placed {
  m: FamilyMemberView;
  x: number;
  y: number;
}

/** Generation of each member: founders 0, children one below their deepest parent. */
function generations(members: readonly FamilyMemberView[]): Map<string, number> {
  const byId = new Map(members.map((m) => [m.sample, m]));
  const gen = new Map<string, number>();
  const visit = (id: string, seen: Set<string>): number => {
    const known = gen.get(id);
    if (known !== undefined) return known;
    const m = byId.get(id);
    if (!m || seen.has(id)) return 0;
    seen.add(id);
    const parents = [m.father, m.mother].filter((p): p is string => p !== null && byId.has(p));
    const g = parents.length ? Math.max(...parents.map((p) => visit(p, seen))) + 1 : 0;
    gen.set(id, g);
    return g;
  };
  for (const m of members) visit(m.sample, new Set());
  // A founder married into the family sits beside the spouse.
  for (const m of members) {
    for (const [a, b] of [[m.father, m.mother]] as const) {
      if (a && b && gen.has(a) && gen.has(b)) {
        const g = Math.max(gen.get(a) ?? 0, gen.get(b) ?? 0);
        gen.set(a, g);
        gen.set(b, g);
      }
    }
  }
  return gen;
}

/** Lays out members row by row: couples side by side, children under their parents' midpoint order. */
export function layoutPedigree(members: readonly FamilyMemberView[]): { placed: Placed[]; width: number; height: number } {
  const gen = generations(members);
  const rows = new Map<number, FamilyMemberView[]>();
  for (const m of members) {
    const g = gen.get(m.sample) ?? 0;
    rows.set(g, [...(rows.get(g) ?? []), m]);
  }
  const placed = new Map<string, Placed>();
  const depth = Math.max(0, ...rows.keys());
  let width = 0;
  for (let g = 0; g <= depth; g++) {
    const row = rows.get(g) ?? [];
    // Order: by the x of the parents (children under their parents), couples adjacent.
    const parentX = (m: FamilyMemberView): number => {
      const xs = [m.father, m.mother].map((p) => (p ? placed.get(p)?.x : undefined)).filter((x): x is number => x !== undefined);
      return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : Number.POSITIVE_INFINITY;
    };
    const ordered = [...row].sort((a, b) => parentX(a) - parentX(b) || a.sample.localeCompare(b.sample));
    const couples: FamilyMemberView[] = [];
    for (const m of ordered) {
      if (couples.includes(m)) continue;
      couples.push(m);
      const spouse = members.find((c) => (c.father === m.sample && c.mother) || (c.mother === m.sample && c.father));
      const other = spouse ? (spouse.father === m.sample ? spouse.mother : spouse.father) : null;
      const o = other ? row.find((r) => r.sample === other) : undefined;
      if (o && !couples.includes(o)) couples.push(o);
    }
    couples.forEach((m, i) => placed.set(m.sample, { m, x: PAD + i * GAP_X, y: PAD + g * GAP_Y }));
    width = Math.max(width, PAD * 2 + (couples.length - 1) * GAP_X);
  }
  return { placed: [...placed.values()], width: Math.max(width, PAD * 2), height: PAD * 2 + depth * GAP_Y + 18 };
}

function Symbol({ p, isProband }: { p: Placed; isProband: boolean }) {
  const { m, x, y } = p;
  const fill = m.status === 'affected' ? 'var(--color-ink-900, #1f2937)' : 'white';
  const stroke = 'var(--color-ink-700, #374151)';
  const dash = m.sequenced ? undefined : '3 2';
  const h = SIZE / 2;
  const shape =
    m.sex === 'male' ? (
      <rect x={x - h} y={y - h} width={SIZE} height={SIZE} fill={fill} stroke={stroke} strokeWidth={1.5} strokeDasharray={dash} />
    ) : m.sex === 'female' ? (
      <circle cx={x} cy={y} r={h} fill={fill} stroke={stroke} strokeWidth={1.5} strokeDasharray={dash} />
    ) : (
      <polygon points={`${x},${y - h} ${x + h},${y} ${x},${y + h} ${x - h},${y}`} fill={fill} stroke={stroke} strokeWidth={1.5} strokeDasharray={dash} />
    );
  return (
    <g data-testid="pedigree-member" aria-label={`${m.sample}: ${m.relation}, ${m.sex}, ${m.status}${m.sequenced ? '' : ', not sequenced'}`}>
      <title>{`${m.sample} — ${m.relation}, ${m.sex}, ${m.status}${m.sequenced ? '' : ' (not sequenced)'}`}</title>
      {shape}
      {m.status === 'unknown' ? (
        <text x={x} y={y + 4} textAnchor="middle" fontSize={12} fill={stroke}>
          ?
        </text>
      ) : null}
      {isProband ? <path d={`M ${x - h - 14} ${y + h + 10} L ${x - h - 3} ${y + h - 1} M ${x - h - 3} ${y + h - 1} l -6 1 M ${x - h - 3} ${y + h - 1} l -1 6`} stroke={stroke} strokeWidth={1.5} fill="none" /> : null}
      <text x={x} y={y + h + 14} textAnchor="middle" fontSize={11} fill={stroke}>
        {m.sample}
      </text>
    </g>
  );
}

/** A small pedigree chart (standard symbols: square male, circle female, diamond unknown sex, filled affected, arrow proband, dashed not sequenced). */
export function PedigreeDrawing({ members, proband }: { members: readonly FamilyMemberView[]; proband: string | null }) {
  const { placed, width, height } = layoutPedigree(members);
  const at = new Map(placed.map((p) => [p.m.sample, p]));
  const lines: { key: string; d: string }[] = [];
  const sibships = new Map<string, Placed[]>();
  for (const p of placed) {
    const f = p.m.father ? at.get(p.m.father) : undefined;
    const mo = p.m.mother ? at.get(p.m.mother) : undefined;
    if (!f && !mo) continue;
    const key = `${p.m.father ?? ''}|${p.m.mother ?? ''}`;
    sibships.set(key, [...(sibships.get(key) ?? []), p]);
  }
  for (const [key, kids] of sibships) {
    const [fa, mo] = key.split('|').map((id) => (id ? at.get(id) : undefined));
    const parents = [fa, mo].filter((x): x is Placed => x !== undefined);
    const py = parents[0]!.y;
    const mid = parents.reduce((s, p) => s + p.x, 0) / parents.length;
    if (parents.length === 2) lines.push({ key: `${key}-mate`, d: `M ${parents[0]!.x + SIZE / 2} ${py} L ${parents[1]!.x - SIZE / 2} ${py}` });
    const barY = kids[0]!.y - SIZE / 2 - 16;
    const xs = kids.map((k) => k.x);
    lines.push({ key: `${key}-down`, d: `M ${mid} ${py + (parents.length === 2 ? 0 : SIZE / 2)} L ${mid} ${barY}` });
    lines.push({ key: `${key}-bar`, d: `M ${Math.min(mid, ...xs)} ${barY} L ${Math.max(mid, ...xs)} ${barY}` });
    for (const k of kids) lines.push({ key: `${key}-${k.m.sample}`, d: `M ${k.x} ${barY} L ${k.x} ${k.y - SIZE / 2}` });
  }
  return (
    <svg role="img" aria-label="Pedigree" width={width} height={height} viewBox={`0 0 ${width} ${height}`} className="max-w-full">
      {lines.map((l) => (
        <path key={l.key} d={l.d} stroke="var(--color-ink-400, #9ca3af)" strokeWidth={1.5} fill="none" />
      ))}
      {placed.map((p) => (
        <Symbol key={p.m.sample} p={p} isProband={p.m.sample === proband} />
      ))}
    </svg>
  );
}
