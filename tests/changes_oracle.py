#!/usr/bin/python3
"""changes_oracle.py TAGK-ESTIMATE DIR: tagk-estimate --segment auto against
an exhaustive NumPy search.

Small regressor streams (the mass model: 1 parameter, 2 rows per sample of
different noise, 150 samples) with 0 to 3 changes. The oracle weighs each row by
1/sd^2 (the sd given to --noise-sd), costs a segment by its least-squares
residual (numpy.linalg.lstsq), and tries every segmentation with up to
three changes and segments of at least 20 samples (tagk's minimum,
max(10 n, 20)), each change costing 2 ln(300) (BIC: n + 1 = 2 per
change, 300 rows). tagk's changes (the t_start of its second and later
segments) must be the oracle's, and its cost (on stderr) the oracle's to
1e-7. --min-effect 0,0: no merging, the bare optimum.
"""
import itertools, math, re, subprocess, sys
import numpy as np

exe, d = sys.argv[1], sys.argv[2]
N, MINLEN, SD = 150, 20, np.array([0.1, 0.3])
fails = 0

def stream(seed, changes):
    rng = np.random.default_rng(seed)
    th = np.array([1.0])
    A = rng.normal(size=(N, 2, 1))
    thetas = np.tile(th, (N, 1))
    for k, (at, dth) in enumerate(changes):
        thetas[at:] += dth
    b = np.einsum('srn,sn->sr', A, thetas) + SD * rng.normal(size=(N, 2))
    lines = ["t,row,Y_m,b"]
    for s in range(N):
        for r in range(2):
            lines.append("%r,%d,%r,%r" % (s * 0.01, r, A[s, r, 0], b[s, r]))
    return A, b, "\n".join(lines) + "\n"

def oracle(A, b):
    Aw = A / SD[None, :, None]
    bw = b / SD[None, :]
    C = np.full((N + 1, N + 1), np.inf)
    for i in range(N):
        for j in range(i + MINLEN, N + 1):
            X = Aw[i:j].reshape(-1, 1)
            y = bw[i:j].reshape(-1)
            sol, *_ = np.linalg.lstsq(X, y, rcond=None)
            C[i, j] = float(np.sum((y - X @ sol) ** 2))
    beta = 2 * math.log(2 * N)
    best, arg = np.inf, ()
    for k in range(4):
        for cps in itertools.combinations(range(MINLEN, N - MINLEN + 1), k):
            e = (0,) + cps + (N,)
            v = beta * k + sum(C[e[q], e[q + 1]] for q in range(k + 1))
            if v < best:
                best, arg = v, cps
    return best, arg

cases = [(1, []), (2, [(60, [0.3])]), (3, [(40, [0.3]), (100, [-0.2])]),
         (4, [(30, [0.25]), (75, [-0.3]), (120, [0.25])]), (5, [(70, [0.02])]), (6, [(23, [0.3])])]
for seed, changes in cases:
    A, b, text = stream(seed, changes)
    p = subprocess.run([exe, "--batch", "-a", "ols", "--segment", "auto", "--min-effect", "0,0",
                        "--noise-sd", "0.1,0.3", "-"], input=text, capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL seed %d: exit %d: %s" % (seed, p.returncode, p.stderr.strip()))
        fails += 1
        continue
    rows = [l for l in p.stdout.splitlines() if not l.startswith("#")]
    hdr = rows[0].split(",")
    ts = hdr.index("t_start")
    got = tuple(int(round(float(r.split(",")[ts]) / 0.01)) for r in rows[2:])
    m = re.search(r"cost (\S+) with", p.stderr)
    gcost = float(m.group(1)) if m else float("nan")
    want, wcp = oracle(A, b)
    ok = got == tuple(wcp) and abs(gcost - want) <= 1e-7 * want
    print("%s seed %d: true changes %s; tagk %s cost %.10g; NumPy %s cost %.10g" % (
        "ok  " if ok else "FAIL", seed, [c[0] for c in changes], list(got), gcost, list(wcp), want))
    fails += not ok
sys.exit(1 if fails else 0)
