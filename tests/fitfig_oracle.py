#!/usr/bin/python3
"""fitfig_oracle.py TAGK-ESTIMATE DIR: the model-fit check's figures
(tagk-estimate -v: each kind's "rms left" and "noise") against NumPy.

Streams of 6 row kinds of 10 parameters at 100 Hz (the "row" column is the
kind), rows a theta plus noise, one kind given a smooth misfit; lengths
that leave the last batch of rows part full and 1 to 3 blocks of 2 s. The
oracle rebuilds the check's blocks (rowfit.h: a block closes at the first
sample 2 s or more after its first, once it has 50 samples; the last is
judged when it has 50 or is the only one), fits each block's
least-squares body over all its rows (numpy.linalg.lstsq), and per kind
takes the residual's rms and the rms of its fourth difference over the
kind's consecutive rows (reaching back 4 samples into the block before)
/ sqrt(70); the figure is the median over the
blocks. tagk prints 3 significant digits: each must be NumPy's rounded.
"""
import re, subprocess, sys
import numpy as np

exe, d = sys.argv[1], sys.argv[2]
K, N = 6, 10
fails = 0


def stream(seed, samples):
    rng = np.random.default_rng(seed)
    th = rng.normal(size=N)
    t = np.arange(samples) * 0.01
    A = rng.normal(size=(samples, K, N)) + np.sin(t)[:, None, None]
    sd = np.array([0.01, 0.02, 0.05, 0.01, 0.03, 0.02])
    b = A @ th + sd * rng.normal(size=(samples, K))
    b[:, 4] += 0.5 * np.sin(3 * t)  # a smooth misfit: a kind no body explains
    return t, A, b


def oracle(t, A, b):
    blocks, cur, t0 = [], [], None
    for s in range(len(t)):
        if len(cur) >= 50 and t[s] - t0 >= 2.0:
            blocks.append(cur)
            cur = []
        if not cur:
            t0 = t[s]
        cur.append(s)
    if len(cur) >= 50 or not blocks:
        blocks.append(cur)
    res, noise = [], []
    for blk in blocks:
        Ab = A[blk].reshape(-1, N)
        bb = b[blk].reshape(-1)
        x = np.linalg.lstsq(Ab, bb, rcond=None)[0]
        r = b[blk] - A[blk] @ x  # samples x kinds
        res.append(np.sqrt(np.mean(r ** 2, axis=0)))
        # the differences reach back over the block's start: the kind's
        # last rows stay from one block to the next
        w = list(range(max(blk[0] - 4, 0), blk[-1] + 1))
        r = b[w] - A[w] @ x
        d4 = r[4:] - 4 * r[3:-1] + 6 * r[2:-2] - 4 * r[1:-3] + r[:-4]
        noise.append(np.sqrt(np.mean(d4 ** 2, axis=0) / 70))
    return np.median(res, axis=0), np.median(noise, axis=0), len(blocks)


for seed, samples in [(1, 150), (2, 151), (3, 153), (4, 413), (5, 550), (6, 599)]:
    t, A, b = stream(seed, samples)
    path = f"{d}/fit{seed}.csv"
    with open(path, "w") as f:
        f.write("t,row," + ",".join(f"Y_{n}" for n in ["m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz"]) + ",b\n")
        for s in range(samples):
            for k in range(K):
                f.write(f"{t[s]!r},{k}," + ",".join(repr(v) for v in A[s, k]) + f",{b[s, k]!r}\n")
    p = subprocess.run([exe, "-v", "-q", "-a", "ols", path], capture_output=True, text=True)
    got = {}
    for m in re.finditer(r"fit check: (\w+) \(row (\d)\): rms left (\S+) .*?, (\S+) times its noise (\S+);", p.stderr):
        got[int(m.group(2))] = (float(m.group(3)), float(m.group(5)))
    wres, wnoise, nb = oracle(t, A, b)
    ok = len(got) == K
    for k in range(K):
        if k not in got:
            continue
        for name, g, w in (("rms left", got[k][0], wres[k]), ("noise", got[k][1], wnoise[k])):
            if abs(g - w) > 0.51 * 10 ** (np.floor(np.log10(abs(w))) - 2):
                print(f"FAIL seed {seed}, {samples} samples ({nb} blocks), row {k}: {name} {g} against NumPy's {w:.6g}")
                ok = False
    if len(got) != K:
        print(f"FAIL seed {seed}: {len(got)} kinds' figures on stderr, want {K}\n{p.stderr[:400]}")
    print(("ok  " if ok else "FAIL") + f"  {samples} samples, {nb} blocks: each kind's rms left and noise are NumPy's")
    fails += not ok
sys.exit(1 if fails else 0)
