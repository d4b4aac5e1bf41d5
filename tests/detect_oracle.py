#!/usr/bin/python3
"""detect_oracle.py REG EST ARL: tagk-estimate --detect's alarms recomputed
with NumPy from the definitions in tagk-estimate(1) and lib/detect.h.

REG is the regressor stream the estimates were made from (t, row, Y_*, b),
EST the estimate stream of `tagk-estimate --raw --detect-arl ARL` with its
default window (5 samples, an update every 5, no refused update). The
oracle rebuilds each update's window (the 5 samples up to the estimate's
t), takes the estimate before it (the previous row; zeros for the first),
forms each row kind's mean residual (rows with A and b all zero left out),
and runs one Student-t CUSUM per kind (nu 4, ratio 1000; 3 updates skipped,
20 learnt; V's memory 50; h = ln(ARL / update period) + ln K, the period
measured over the first 23 updates; after an alarm V forgets the
excursion's windows, 3 updates are skipped and 20 learnt from without a
test). It prints the updates it
alarms at and exits 1 unless they are the estimate stream's event rows.
"""
import math, sys
import numpy as np

def read(path):
    lines = [l for l in open(path) if not l.startswith('#')]
    head = lines[0].strip().split(',')
    data = np.array([[float(x) if x != '' else np.nan for x in l.strip().split(',')] for l in lines[1:]])
    return head, data

rh, reg = read(sys.argv[1])
eh, est = read(sys.argv[2])
arl = float(sys.argv[3])
ycols = [i for i, c in enumerate(rh) if c.startswith('Y_')]
it, irow, ib = rh.index('t'), rh.index('row'), rh.index('b')
n = len(ycols)
pcols = [eh.index(c[2:]) for c in (rh[i] for i in ycols)]
iev = eh.index('event')
times = np.unique(reg[:, it])
kinds = int(reg[:, irow].max()) + 1

NU, RATIO, SKIP, LEARN, MEM = 4.0, 1000.0, 3, 20, 50
V = np.zeros(kinds); B = np.zeros(kinds); G = np.zeros(kinds)
Vs = np.zeros(kinds); Bs = np.zeros(kinds)
learnt = since = alarms = 0
h = None
tfirst = None
ours = []
theta = np.zeros(n)
for k in range(est.shape[0]):
    t = est[k, 0]
    j = np.searchsorted(times, t)
    win = times[j - 4:j + 1]
    rows = reg[np.isin(reg[:, it], win)]
    A, b, kind = rows[:, ycols], rows[:, ib], rows[:, irow].astype(int)
    r = b - A @ theta
    keep = ~((b == 0) & np.all(A == 0, axis=1))
    mu = np.zeros(kinds); bsq = np.zeros(kinds); cnt = np.zeros(kinds, int)
    for q in range(kinds):
        sel = keep & (kind == q)
        cnt[q] = sel.sum()
        if cnt[q]:
            mu[q] = r[sel].mean(); bsq[q] = (b[sel] ** 2).mean()
    if k == 0:
        tfirst = t
    if h is None and k + 1 >= SKIP + LEARN:
        h = math.log(arl / ((t - tfirst) / k))
    since += 1
    alarm = False
    if since > SKIP:
        settling = alarms and since <= SKIP + LEARN
        if not settling and learnt >= LEARN:
            present = cnt > 0
            z2 = mu ** 2 / (V + 1e-12 * B + np.finfo(np.float32).tiny)
            l = (NU + 1) / 2 * (np.log1p(z2 / NU) - np.log1p(z2 / (RATIO * NU))) - math.log(RATIO) / 2
            l[~present] = 0
            start = present & (G == 0) & (l > 0)
            Vs[start] = V[start]; Bs[start] = B[start]
            G = np.where(present, np.maximum(0, G + l), G)
            if G.max() > h + math.log(present.sum()):
                alarm = True
                ours.append(k)
                back = G > 0
                V[back] = Vs[back]; B[back] = Bs[back]
                G[:] = 0
                alarms += 1
                since = 0
        if not alarm:
            learnt += 1
            a = 1 / learnt if learnt <= LEARN else 1 / MEM
            p = cnt > 0
            V[p] += a * (mu[p] ** 2 - V[p]); B[p] += a * (bsq[p] - B[p])
    theta = est[k, pcols]
theirs = [k for k in range(est.shape[0]) if est[k, iev] == 1]
print('oracle alarms at updates', ours, 'tagk-estimate', theirs)
sys.exit(0 if ours == theirs else 1)
