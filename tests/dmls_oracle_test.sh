#!/bin/sh
# dmls_oracle_test.sh: dual-metric least squares (lib/dmls.c) against an
# SDP solver, CVXOPT (python3-cvxopt): the Schur-complement form of paper
# 002's eq. 33, minimise sum s_k subject to [[s_k, r_k^T], [r_k, M_k(pi)]]
# >= 0 per sample and, constrained, J(pi) >= 0. Free rigid bodies (n = 6,
# p = 10), N = 20 samples, their regressor and spatial inertia written here
# from the definitions (f = I a + v x* I v), sharing no code with lib/. Half
# the bodies are a little thinner than a plate (the triangle inequality fails
# by a little, the metric stays definite) with torque noise 1e-3, so that the
# constrained optimum lies on the boundary; the others are boxes with noise
# 0.05. (With more noise the dual-metric estimate of a thin body comes out
# thicker than the truth: r^T M^-1 r falls as M grows, so noise in tau biases
# the estimate toward larger inertia; see tagk-papers(7).) Both optima must agree to 1e-6 relative in the
# objective, and ours must be physical. Skips without cvxopt and numpy.
set -u
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
SOLVE=${DMLS_SOLVE:-build/dmls_solve}
if ! [ -x $PY ] || ! $PY -c 'import cvxopt, numpy' 2>/dev/null; then
	echo "skip the SDP oracle of dmls: /usr/bin/python3 with cvxopt and numpy is not installed"
	finish
	exit 0
fi
$PY - "$SOLVE" "$tmp" > "$tmp/oracle.out" 2>&1 <<'PYEOF'
import sys, subprocess
import numpy as np
from cvxopt import matrix, solvers
solvers.options.update({"show_progress": False, "maxiters": 200, "abstol": 1e-8, "reltol": 1e-8, "feastol": 1e-8})
solve, tmp = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(3)

def S(x):
    return np.array([[0, -x[2], x[1]], [x[2], 0, -x[0]], [-x[1], x[0], 0]])

def inertia6(t):
    # spatial inertia about the body origin, [omega; v] order
    I = np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
    h = t[1:4]
    return np.block([[I, S(h)], [S(h).T, t[0] * np.eye(3)]])

def crf(v):
    w, u = v[:3], v[3:]
    return np.block([[S(w), S(u)], [np.zeros((3, 3)), S(w)]])

def pseudo(t):
    I = np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
    J = np.zeros((4, 4))
    J[:3, :3] = np.trace(I) / 2 * np.eye(3) - I
    J[:3, 3] = J[3, :3] = t[1:4]
    J[3, 3] = t[0]
    return J

E = [pseudo(np.eye(10)[j]) for j in range(10)]
Mj = [inertia6(np.eye(10)[j]) for j in range(10)]

def body(rng, plate):
    # "plate": thinner than a plate (J has a negative eigenvalue, the
    # triangle inequality fails by a little, while the spatial inertia, the
    # metric, stays definite): data from it put the constrained optimum on
    # the boundary; else a box, well inside
    m = 0.5 + rng.random()
    c = (rng.random(3) - 0.5) * 0.4
    v = np.append(c, 1.0)
    s2 = [(0.2 * (0.5 + rng.random())) ** 2 for _ in range(3)]
    if plate:
        s2[2] = -0.03 ** 2
    J = m * np.outer(v, v) + np.diag([x * m for x in s2] + [0])
    S_ = J[:3, :3]
    I = np.trace(S_) * np.eye(3) - S_
    return np.array([J[3, 3], *J[:3, 3], I[0, 0], I[0, 1], I[1, 1], I[0, 2], I[1, 2], I[2, 2]])

N, n, p = 20, 6, 10
problems = []
for t in range(24):
    truth = body(rng, t % 2 == 0)
    Ys, taus = [], []
    for k in range(N):
        v, a = rng.standard_normal(6), rng.standard_normal(6)
        Y = np.column_stack([Mj[j] @ a + crf(v) @ Mj[j] @ v for j in range(p)])
        Ys.append(Y)
        taus.append(Y @ truth + (1e-3 if t % 2 == 0 else 0.05) * rng.standard_normal(6))
    problems.append((t % 4 < 2, truth, Ys, taus))

with open(tmp + "/in.txt", "w") as f:
    for cons, truth, Ys, taus in problems:
        start = (truth + np.array([1, 0, 0, 0, 1, 0, 1, 0, 0, 1.0])) / 2
        f.write("%d %d %d %d\n" % (N, n, p, 1 if cons else 0))
        f.write(" ".join("%.17g" % x for Y in Ys for x in Y.ravel()) + "\n")
        f.write(" ".join("%.17g" % x for tau in taus for x in tau) + "\n")
        for k in range(N):
            f.write(" ".join("%.17g" % x for x in np.zeros((n, n)).ravel()) + " ")
            f.write(" ".join("%.17g" % x for j in range(p) for x in Mj[j].ravel()) + "\n")
        f.write(" ".join("%.17g" % x for x in start) + "\n")
out = subprocess.run([solve], stdin=open(tmp + "/in.txt"), capture_output=True, text=True, check=True)
lines = out.stdout.strip().split("\n")
worst, bad, unphys, active = 0.0, 0, 0, 0
for (cons, truth, Ys, taus), line in zip(problems, lines):
    v = line.split()
    if v[0] != "0":
        bad += 1
        continue
    ours = np.array([float(x) for x in v[2:]])
    # x = [pi (10), s (N)]; minimise sum s
    c = matrix(np.concatenate([np.zeros(p), np.ones(N)]))
    Gs, hs = [], []
    for k in range(N):
        G = np.zeros(((n + 1) ** 2, p + N))
        for j in range(p):
            F = np.zeros((n + 1, n + 1))
            F[1:, 0] = F[0, 1:] = Ys[k][:, j]
            F[1:, 1:] = Mj[j]
            G[:, j] = -F.ravel()
        F = np.zeros((n + 1, n + 1)); F[0, 0] = 1
        G[:, p + k] = -F.ravel()
        H = np.zeros((n + 1, n + 1))
        H[1:, 0] = H[0, 1:] = -taus[k]
        Gs.append(matrix(G)); hs.append(matrix(H))
    if cons:
        G = np.zeros((16, p + N))
        for j in range(p):
            G[:, j] = -E[j].ravel()
        Gs.append(matrix(G)); hs.append(matrix(np.zeros((4, 4))))
    sol = solvers.sdp(c, Gs=Gs, hs=hs)
    x = np.array(sol["x"]).ravel()
    fs = sum(np.linalg.solve(inertia6(x[:p]), Ys[k] @ x[:p] - taus[k]) @ (Ys[k] @ x[:p] - taus[k]) for k in range(N))
    fo = float(v[1])
    e = (fo - fs) / abs(fs)
    worst = max(worst, abs(e))
    if cons:
        unphys += np.linalg.eigvalsh(pseudo(ours)).min() < -1e-9
        free = [np.linalg.lstsq(np.vstack(Ys), np.concatenate(taus), rcond=None)[0]]
        active += np.linalg.eigvalsh(pseudo(x[:p])).min() < 1e-6
print("problems %d (12 constrained, %d with the constraint active), refused %d, worst relative objective "
      "difference %.3g, ours not physical %d" % (len(problems), active, bad, worst, unphys))
if bad or unphys or not worst < 1e-6 or active == 0:
    print("FAIL")
    sys.exit(1)
PYEOF
rc=$?
sed 's/^/  /' "$tmp/oracle.out"
check "dmls agrees with CVXOPT's SDP (eq. 33) on every problem, physical where constrained" test $rc -eq 0
finish
