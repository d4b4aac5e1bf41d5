#!/usr/bin/python3
"""hac_wide_oracle.py: tagk-estimate --batch -a ols|wls's Newey-West sd on a
whole-arm stream, recomputed by NumPy from the rows themselves.

    hac_wide_oracle.py check METHOD STREAM.csv ESTIMATE.csv
    hac_wide_oracle.py make SEED SAMPLES RHO > STREAM.csv
    hac_wide_oracle.py colour IN.csv OUT.csv SEED SD RHO

STREAM: a whole-arm regressor stream as CSV (t, row, Y_*, b; # lines
skipped). It fits theta (ols; wls: each row index weighted by the inverse of
its residual variance at the ordinary fit, N / (N - n) degrees of freedom),
forms each block's score sum over its rows of w_r y (b - y^T theta) from the
rows (not from sums), the blocks by the rule tagk-estimate(1) states (one
sample each up to the cap, then pairs merged: all blocks of L samples but
the last), then Andrews' (1991) AR(1) Bartlett bandwidth on the sum of the
scores' components over their rms, the Newey-West long-run covariance, the
Kiefer-Vogelsang fixed-b widening and the sandwich, written from their
formulas. Prints the worst difference of theta (in sd) and of the sd (relative) from
ESTIMATE's, the bandwidth and the blocks.

make: a synthetic whole-arm stream of known regressor and truth: two rows
(joints) per sample at 100 Hz, parameters a b c d = 1 2 -1 0.5 (true_
columns), row 0 y = (1, sin(1.3 t), x_t, 0), row 1 y = (0, cos(0.7 t), 1,
z_t), x and z AR(1) 0.98 regressors, b = y theta + noise, the noise AR(1)
of coefficient RHO per row (sd 0.1 and 0.3).

colour: a joint log (tests/wholearm_oracle.c's) with AR(1) noise of
stationary sd SD (N m) and coefficient RHO added to each tau column,
independent per joint (tests/hac_wide_mc.sh).
"""
import sys
import numpy as np

MAX_BLOCKS, MIN_BLOCKS, BLOCK_MEM = 512, 32, 64 << 20


def read_csv(path):
    with open(path) as f:
        lines = [l.rstrip('\n') for l in f if not l.startswith('#')]
    head = lines[0].split(',')
    data = np.array([[float(x) for x in l.split(',')] for l in lines[1:]])
    return head, data


def blocks(samples, cap):
    """The block length L and count after samples samples (tagk's rule)."""
    nblk, L, fill = 0, 1, 0
    for s in range(samples):
        if nblk and fill < L:
            fill += 1
            continue
        if nblk == cap:
            nblk, L = cap // 2, 2 * L
        nblk, fill = nblk + 1, 1
    return L, nblk


def bandwidth(G):
    T = G.shape[0]
    rms = np.sqrt((G ** 2).mean(axis=0))
    scale = np.where(rms > 0, 1 / np.where(rms > 0, rms, 1), 0)
    s = G @ scale
    s0, s1 = s @ s / T, s[1:] @ s[:-1] / T
    if not s0 > 0:
        return 0
    rho = min(max(s1 / s0, -0.999), 0.999)
    alpha = 4 * rho ** 2 / ((1 - rho) ** 2 * (1 + rho) ** 2)
    return max(0, int(min(np.floor(1.1447 * (alpha * T) ** (1 / 3)), T - 1)))


def make(seed, samples, rho):
    rng = np.random.default_rng(seed)
    th = np.array([1, 2, -1, 0.5])
    x, z, e = np.zeros(2), np.zeros(2), np.zeros(2)
    print('t,row,Y_a,Y_b,Y_c,Y_d,b,true_a,true_b,true_c,true_d')
    for s in range(samples):
        t = 0.01 * s
        x = 0.98 * x + 0.2 * rng.standard_normal(2)
        e = rho * e + np.sqrt(1 - rho * rho) * np.array([0.1, 0.3]) * rng.standard_normal(2)
        for r, y in enumerate(([1, np.sin(1.3 * t), x[0], 0], [0, np.cos(0.7 * t), 1, x[1]])):
            print(','.join('%.17g' % v for v in [t, r] + y + [np.dot(y, th) + e[r]] + list(th)))


def colour(src, dst, seed, sd, rho):
    lines = [l for l in open(src) if not l.startswith('#')]
    head = lines[0].rstrip('\n').split(',')
    D = np.array([[float(x) for x in l.split(',')] for l in lines[1:]])
    cols = [i for i, h in enumerate(head) if h.startswith('tau')]
    rng = np.random.default_rng(seed)
    e = np.zeros((D.shape[0], len(cols)))
    e[0] = sd * rng.standard_normal(len(cols))
    for t in range(1, D.shape[0]):
        e[t] = rho * e[t - 1] + sd * np.sqrt(1 - rho * rho) * rng.standard_normal(len(cols))
    D[:, cols] += e
    with open(dst, 'w') as f:
        f.write(lines[0])
        for r in D:
            f.write(','.join('%.17g' % v for v in r) + '\n')


def check():
    method, stream, est = sys.argv[2:5]
    head, D = read_csv(stream)
    iy = [i for i, h in enumerate(head) if h.startswith('Y_')]
    names = [head[i][2:] for i in iy]
    t, row, Y, b = D[:, head.index('t')], D[:, head.index('row')].astype(int), D[:, iy], D[:, head.index('b')]
    N, n = Y.shape
    idx = sorted(set(row))
    th = np.linalg.lstsq(Y, b, rcond=None)[0]
    w = np.ones(N)
    wk = {k: 1.0 for k in idx}
    dof = N / (N - n)
    if method == 'wls':
        r = b - Y @ th
        wk = {k: 1 / (np.mean(r[row == k] ** 2) * dof) for k in idx}
        w = np.array([wk[k] for k in row])
        th = np.linalg.lstsq(Y * np.sqrt(w)[:, None], b * np.sqrt(w), rcond=None)[0]
    # samples: rows of one time
    newsample = np.r_[True, t[1:] != t[:-1]]
    sample = np.cumsum(newsample) - 1
    S = sample[-1] + 1
    nslot = len(idx) if method == 'wls' else 1
    per = nslot * (n * (n + 1) // 2 + n) * 8
    cap = BLOCK_MEM // per
    cap = MAX_BLOCKS if cap > MAX_BLOCKS else MIN_BLOCKS if cap < MIN_BLOCKS else cap & ~1
    L, T = blocks(S, cap)
    blk = sample // L
    assert blk[-1] + 1 == T
    e = (w * (b - Y @ th))[:, None] * Y
    G = np.zeros((T, n))
    np.add.at(G, blk, e)
    B = bandwidth(G)
    Om = G.T @ G
    for j in range(1, B + 1):
        Gj = G[j:].T @ G[:-j]
        Om += (1 - j / (B + 1)) * (Gj + Gj.T)
    bb = min((B + 1) / T, 1) if B >= 1 else 0
    c = (1.96 + bb * (2.9694 + bb * (0.4160 - 0.5324 * bb))) / 1.96 if B >= 1 else 1
    Hw = (Y * w[:, None]).T @ Y
    Hi = np.linalg.inv(Hw)
    sd = np.sqrt(np.diag(Hi @ (dof * c * c * Om) @ Hi))
    eh, ev = read_csv(est)
    ev = ev[-1]
    dth = max(abs(ev[eh.index(k)] - th[j]) / sd[j] for j, k in enumerate(names))
    dsd = max(abs(ev[eh.index('sd_' + k)] - sd[j]) / sd[j] for j, k in enumerate(names))
    print('theta %.3g sd, sd %.3g relative, bandwidth %d blocks %d of %d samples' % (dth, dsd, B, T, L))


if sys.argv[1] == 'make':
    make(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
elif sys.argv[1] == 'colour':
    colour(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]))
else:
    check()
