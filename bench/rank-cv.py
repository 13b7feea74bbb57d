"""Cohort-grouped cross-validation of the gene-ranking constants (dev split only).

Input: the feature dump of bench/rank-dev.ts (the product's candidate filter + rank, background
exome annotated once), e.g.
    node --import tsx bench/rank-dev.ts --sample 600 --dump /tmp/dump.jsonl
    python3 bench/rank-cv.py /tmp/dump.jsonl
Gene score, as in packages/engine/src/rank/rank-case.ts:
  annotated disease:      a * temper(phenotype log-LR) + w * ln fit + constraint
  disease known by name:  cn + an * ln LR(features named in its title) + w * ln fit + constraint
  no disease:             c0 + w * ln fit + constraint
Scores every grid point on every case, picks the best (top-1 + 0.5 * top-10 + 0.1 * top-100) on
4 of 5 cohort folds (sha256(cohort) % 5) and scores the held-out fold. Prints in-sample and
held-out figures; ranks are pessimistic (ties count against the causal gene). The dump keeps
each case's top 300 genes, its causal genes and every gene without an annotated disease.
"""
import json, math, itertools, hashlib, sys
import numpy as np

LN10 = math.log(10)
FLOOR = 0.001
KNEE = 10 * LN10
SHIPPED = (0.7, 3, -4, -2, 1.0)  # a, w, c0, cn, an
A = [0.5, 0.7, 1.0]; W = [2, 3, 4]; C0 = [-8, -6, -4]; CN = [-4, -3, -2, -1]; AN = [0.5, 1.0, 1.5]
grid = np.array(list(itertools.product(A, W, C0, CN, AN)), dtype=float)

rows = [json.loads(l) for l in open(sys.argv[1])]
cases = []
for r in rows:
    K = []; PH = []; LF = []; B = []; C = []
    for f in r['feats']:
        sym, isc, ann, plog10, fit, mode, p, lof, mis, hom, nused, plp, plpm, plpl, pli, loeuf, misz, am, g2d, cv, acmg, csq, named = f[:23]
        dom = mode in ('AD', 'UNKNOWN', 'XLD', 'MT')
        lofc = 1.0 if (lof and dom and ((pli or 0) >= 0.9 or (loeuf is not None and loeuf < 0.35))) else 0.0
        misc = 1.0 if (mis and (misz or 0) >= 3) else 0.0
        K.append(0 if ann else (1 if named else 2)); PH.append((plog10 or 0) * LN10); LF.append(math.log(max(fit, FLOOR))); B.append(lofc + misc); C.append(isc)
    cases.append(dict(cohort=r['cohort'], K=np.array(K)[:, None], PH=np.array(PH)[:, None], LF=np.array(LF)[:, None], B=np.array(B)[:, None], C=np.array(C, dtype=bool),
                      unann=not any(f[1] and f[2] for f in r['feats'])))

a, w, c0, cn, an = (grid[:, i][None, :] for i in range(5))
R = np.full((len(cases), len(grid)), 1e6)
for k, c in enumerate(cases):
    if not c['C'].any():
        continue
    ph = c['PH']
    pht = np.minimum(ph, KNEE) + 0.5 * np.maximum(0, ph - KNEE)
    S = np.where(c['K'] == 0, a * pht, np.where(c['K'] == 1, cn + an * ph, c0)) + w * c['LF'] + c['B']
    best = S[c['C']].max(axis=0)
    R[k] = (S[~c['C']] >= best).sum(axis=0) + 1

unann = np.array([c['unann'] for c in cases])
def m(r): return '%.1f / %.1f / %.1f / %.1f' % tuple(100 * (r <= k).mean() for k in (1, 3, 10, 100))
def obj(Rs): return (Rs <= 1).mean(axis=0) + 0.5 * (Rs <= 10).mean(axis=0) + 0.1 * (Rs <= 100).mean(axis=0)
print('figures: top-1 / top-3 / top-10 / top-100 (%)')
si = np.where((grid == SHIPPED).all(axis=1))[0][0]
print('shipped', SHIPPED, 'all', m(R[:, si]), '| annotated', m(R[~unann, si]), '| unannotated (n=%d)' % unann.sum(), m(R[unann, si]))
bi = obj(R).argmax()
print('in-sample best', grid[bi], 'all', m(R[:, bi]), '| annotated', m(R[~unann, bi]), '| unannotated', m(R[unann, bi]))
fold = np.array([int(hashlib.sha256(c['cohort'].encode()).hexdigest(), 16) % 5 for c in cases])
held = np.empty(len(cases))
for k in range(5):
    tr = fold != k
    b = obj(R[tr]).argmax()
    held[fold == k] = R[fold == k, b]
    print('fold', k, 'chose', grid[b], 'train top-1 %.3f' % (R[tr, b] <= 1).mean(), 'test top-1 %.3f' % (R[fold == k, b] <= 1).mean())
print('held out', 'all', m(held), '| annotated', m(held[~unann]), '| unannotated', m(held[unann]))
