"""Cohort-grouped cross-validation of the gene-ranking constants (dev split only).

Input: the feature dump of bench/rank-dev.ts (the product's candidate filter + rank, background
exome annotated once), e.g.
    node --import tsx bench/rank-dev.ts --sample 600 --dump /tmp/dump.jsonl
    python3 bench/rank-cv.py /tmp/dump.jsonl
Scores every grid point on every case (gene score = a * temper(phenotype log-LR) + w * ln fit
+ c0 [no annotated disease] + cl [constrained LoF] + cm [constrained missense]), picks the best
(top-1 + 0.5 * top-10) on 4 of 5 cohort folds (sha256(cohort) % 5) and scores the held-out fold.
Prints in-sample and held-out figures; ranks are pessimistic (ties count against the causal gene).
"""
import json, math, itertools, hashlib, sys
import numpy as np
rows=[json.loads(l) for l in open(sys.argv[1])]
LN10=math.log(10); FLOOR=0.001
# parameter grid
A=[0.7,0.8,1.0]; Wg=[2.5,3,4]; C0=[-8,-6,-4.6,-3]; CL=[0,1,2,3]; CM=[0,0.5,1]; CP=[0]; CG=[0]; TK=[99,10,5]
grid=np.array(list(itertools.product(A,Wg,C0,CL,CM,CP,CG,TK)),dtype=float)  # G x 8
# feature columns: pheno_ln (0 if unannotated), lnfit, unannotated, lofc, misc, ln1p(plp), g2d&unann
cases=[]
for r in rows:
    F=[];C=[]
    for f in r['feats']:
        sym,isc,ann,plog10,fit,mode,p,lof,mis,hom,nused,plp,plpm,plpl,pli,loeuf,misz,am,g2d,cv,acmg=f
        dom = mode in ('AD','UNKNOWN','XLD','MT')
        lofc=1.0 if (lof and dom and ((pli or 0)>=0.9 or (loeuf is not None and loeuf<0.35))) else 0.0
        misc=1.0 if (mis and (misz or 0)>=3) else 0.0
        F.append([ (plog10 or 0)*LN10 if ann else 0.0, math.log(max(fit,FLOOR)), 0.0 if ann else 1.0, lofc, misc, math.log1p(plp), 1.0 if (g2d and not ann) else 0.0]); C.append(isc)
    F=np.array(F); C=np.array(C,dtype=bool)
    cases.append((r['cohort'],F,C))
def score_matrix(F):
    # S[i,g] = a*ph + w*lnfit + c0*unann + cl*lofc + cm*misc + cp*lnplp + cg*g2d
    a,w,c0,cl,cm,cp,cg,tk=grid.T
    ph=F[:,0][:,None]; knee=tk[None,:]*LN10
    pht=np.minimum(ph,knee)+0.5*np.maximum(0,ph-knee)
    return pht*a[None,:]+np.outer(F[:,1],w)+np.outer(F[:,2],c0)+np.outer(F[:,3],cl)+np.outer(F[:,4],cm)+np.outer(F[:,5],cp)+np.outer(F[:,6],cg)
R=np.full((len(cases),len(grid)),1e6)
for k,(coh,F,C) in enumerate(cases):
    if not C.any(): continue
    S=score_matrix(F)
    best=S[C].max(axis=0)
    R[k]=(S[~C]>=best).sum(axis=0)+1
unann=np.array([not any(f[1] and f[2] for f in r['feats']) for r in rows])
def m(r): return (r<=1).mean(),(r<=3).mean(),(r<=10).mean()
def obj(Rsub): return (Rsub<=1).mean(axis=0)+0.5*(Rsub<=10).mean(axis=0)
cur=np.where((grid==[1.0,4,-4.6,0,0,0,0,99]).all(axis=1))[0][0]
print('previous constants (a=1, w=4, c0=ln 0.01, no constraint, no tempering)', 'all %.3f %.3f %.3f'%m(R[:,cur]), 'unann', '%.3f %.3f %.3f'%m(R[unann,cur]), 'n_unann', unann.sum())
bi=obj(R).argmax(); print('in-sample best', grid[bi], 'all %.3f %.3f %.3f'%m(R[:,bi]), 'unann %.3f %.3f %.3f'%m(R[unann,bi]), 'ann %.3f %.3f %.3f'%m(R[~unann,bi]))
fold=np.array([int(hashlib.sha256(c[0].encode()).hexdigest(),16)%5 for c in cases])
held=np.empty(len(cases))
for k in range(5):
    tr=fold!=k; b=obj(R[tr]).argmax(); held[fold==k]=R[fold==k,b]; print('fold',k,grid[b], 'train %.3f'%((R[tr,b]<=1).mean()), 'test %.3f'%((R[fold==k,b]<=1).mean()))
print('CV held-out all %.3f %.3f %.3f'%m(held), 'unann %.3f %.3f %.3f'%m(held[unann]), 'ann %.3f %.3f %.3f'%m(held[~unann]))
