"""baseparam_oracle.py: tagk-regress --base against NumPy on random chains.

  baseparam_oracle.py make DIR SEED      write DIR/chain.model and DIR/log.csv
  baseparam_oracle.py check DIR          read DIR/full.csv (--unknown all),
                                         DIR/base.csv (--base) and DIR/groups.txt

make: a random fixed-base chain of 3 to 7 joints, revolute or prismatic,
axes along a frame axis (most) or anywhere, offsets zero or random, frames
turned by quarter turns (most) or at random: the kinds of chain whose
parameters group. The log: 150 random states (q, qd, qdd; tau 0).
check: from the standard rows Y of the log, NumPy's rank (SVD, 1e-9 of the
largest singular value) must be tagk's; every null direction tagk names
must leave Y unchanged (|Y v| <= 1e-9 |Y| |v|) and they must span a space
of NumPy's null-space dimension; the grouping's coefficients must be the
least-squares ones of the dependent columns on the base columns; and the
base rows must be Y's base columns. Prints one line; exit 1 on a failure.
"""
import sys, re
import numpy as np

def make(d, seed):
    rng = np.random.default_rng(seed)
    nj = int(rng.integers(3, 8))
    quarter = [(1, 0, 0, 0), (0.7071067811865476, 0.7071067811865476, 0, 0),
               (0.7071067811865476, 0, 0.7071067811865476, 0), (0.7071067811865476, 0, 0, 0.7071067811865476),
               (0.7071067811865476, -0.7071067811865476, 0, 0)]
    out = ["body base", "parent world", "joint fixed", "mass 1", "com 0 0 0", "inertia 0.1 0.1 0.1 0 0 0"]
    kinds = []
    for j in range(nj):
        kind = "prismatic" if rng.random() < 0.2 else "revolute"
        kinds.append(kind)
        if rng.random() < 0.8:
            ax = np.zeros(3); ax[rng.integers(3)] = rng.choice([-1, 1])
        else:
            ax = rng.normal(size=3); ax /= np.linalg.norm(ax)
        pos = rng.normal(size=3) * 0.3 if rng.random() < 0.6 else np.zeros(3)
        if rng.random() < 0.5:
            pos = np.where(rng.random(3) < 0.5, 0, pos)
        quat = quarter[rng.integers(len(quarter))] if rng.random() < 0.8 else tuple(rng.normal(size=4))
        m = 0.5 + rng.random() * 2
        out += ["body l%d" % (j + 1), "parent %s" % ("base" if j == 0 else "l%d" % j), "joint " + kind,
                "axis %.17g %.17g %.17g" % tuple(ax), "pos %.17g %.17g %.17g" % tuple(pos),
                "quat %.17g %.17g %.17g %.17g" % tuple(quat), "mass %.17g" % m,
                "com %.17g %.17g %.17g" % tuple(rng.normal(size=3) * 0.1), "inertia 0.03 0.04 0.05 0.001 0.002 0.003"]
    open(d + "/chain.model", "w").write("\n".join(out) + "\n")
    with open(d + "/log.csv", "w") as f:
        f.write("t," + ",".join("%s%d" % (s, j + 1) for s in ("q", "qd", "qdd", "tau") for j in range(nj)) + "\n")
        for i in range(150):
            q = [rng.uniform(-np.pi, np.pi) if k == "revolute" else rng.uniform(-0.5, 0.5) for k in kinds]
            row = [0.001 * i] + q + list(rng.normal(size=nj)) + list(rng.normal(size=nj)) + [0] * nj
            f.write(",".join("%.17g" % v for v in row) + "\n")

def read(path):
    lines = [l.strip() for l in open(path) if not l.startswith("#")]
    head = lines[0].split(",")
    data = np.array([[float(v) for v in l.split(",")] for l in lines[1:]])
    cols = [i for i, c in enumerate(head) if c.startswith("Y_")]
    return [head[i][2:] for i in cols], data[:, cols]

def terms(text):
    """'a + 0.5 b - 2 c' -> [(1, a), (0.5, b), (-2, c)]"""
    toks = text.split()
    out = [(1.0, toks[0])]
    for i in range(1, len(toks), 3):
        out.append(((1 if toks[i] == "+" else -1) * float(toks[i + 1]), toks[i + 2]))
    return out

def check(d):
    names, Y = read(d + "/full.csv")
    bnames, Yb = read(d + "/base.csv")
    idx = {n: i for i, n in enumerate(names)}
    groups, nulls = [], []
    for l in open(d + "/groups.txt"):
        m = re.match(r"(b|null)(\d+) = (.*)", l)
        if m:
            (groups if m.group(1) == "b" else nulls).append(terms(m.group(3)))
    n = Y.shape[1]
    s = np.linalg.svd(Y, compute_uv=False)
    rank = int((s > 1e-9 * s[0]).sum())
    bad = []
    if rank != len(groups) or rank != len(bnames):
        bad.append("rank: NumPy %d, tagk %d groups, %d base columns" % (rank, len(groups), len(bnames)))
    base = [idx[g[0][1]] for g in groups]
    dep = [i for i in range(n) if i not in base]
    # the base rows are Y's base columns
    e_rows = np.abs(Yb - Y[:, base]).max() / np.abs(Y).max()
    if not e_rows <= 1e-15:
        bad.append("base rows differ from Y's base columns by %.3g" % e_rows)
    # the grouping: beta = lstsq(Y_base, Y_dep)
    beta = np.linalg.lstsq(Y[:, base], Y[:, dep], rcond=None)[0] if dep else np.zeros((rank, 0))
    tb = np.zeros_like(beta)
    for k, g in enumerate(groups):
        for c, nm in g[1:]:
            tb[k, dep.index(idx[nm])] = c
    e_beta = np.abs(tb - beta).max() if dep else 0.0
    if not e_beta <= 1e-8:
        bad.append("grouping coefficients differ from NumPy's by %.3g" % e_beta)
    # the null space
    V = np.zeros((n, len(nulls)))
    for j, g in enumerate(nulls):
        for c, nm in g:
            V[idx[nm], j] = c
    e_null = (np.abs(Y @ V).max(axis=0) / (np.abs(Y).max() * np.abs(V).max(axis=0))).max() if nulls else 0.0
    vrank = np.linalg.matrix_rank(V) if nulls else 0
    if not e_null <= 1e-9 or vrank != n - rank or len(nulls) != n - rank:
        bad.append("null space: |Y v| %.3g, %d directions of rank %d, NumPy's dimension %d" % (e_null, len(nulls), vrank, n - rank))
    print("%d parameters, rank %d (NumPy %d), null space %d, |Y v| %.2g, grouping %.2g, base rows %.2g%s" %
          (n, len(groups), rank, len(nulls), e_null, e_beta, e_rows, "; " + "; ".join(bad) if bad else ""))
    return 1 if bad else 0

if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(check(sys.argv[2]))
