#!/bin/sh
# pcls_oracle_test.sh: physically consistent least squares (lib/pcls.c)
# against an SDP solver, CVXOPT (python3-cvxopt), on 100 random problems
# whose unconstrained least-squares solution is not physical: 1 to 3 bodies
# near point masses, noisy data. The SDP: minimise t subject to
# [[t, (R theta - c)^T], [R theta - c, I]] >= 0 (H = R^T R, c = R^-T h) and
# every body's pseudo-inertia >= 0, built here from the definition of J,
# sharing no code with lib/. Both solutions' residuals ||A theta - b||^2
# must agree to 1e-6 relative, and ours must be physical. Skips without
# python3-cvxopt and numpy.
set -u
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
SOLVE=${PCLS_SOLVE:-build/pcls_solve}
if ! [ -x $PY ] || ! $PY -c 'import cvxopt, numpy' 2>/dev/null; then
	echo "skip the SDP oracle: /usr/bin/python3 with cvxopt and numpy is not installed"
	finish
	exit 0
fi
$PY - "$SOLVE" "$tmp" > "$tmp/oracle.out" 2>&1 <<'PYEOF'
import sys, subprocess
import numpy as np
from cvxopt import matrix, solvers
solvers.options.update({"show_progress": False, "maxiters": 200})
solve, tmp = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)

def pseudo(t):
    # theta = m, mcx, mcy, mcz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz; J = [[tr(I)/2 1 - I, mc], [mc^T, m]]
    I = np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
    J = np.zeros((4, 4))
    J[:3, :3] = np.trace(I) / 2 * np.eye(3) - I
    J[:3, 3] = J[3, :3] = t[1:4]
    J[3, 3] = t[0]
    return J

E = [pseudo(np.eye(10)[i]) for i in range(10)]

def physical(theta, B, tol=0.0):
    return all(np.linalg.eigvalsh(pseudo(theta[10 * k:10 * k + 10])).min() >= -tol for k in range(B))

problems = []
while len(problems) < 100:
    B = 1 + len(problems) % 3
    n, m = 10 * B, 20 * B
    truth = []
    for k in range(B):
        mass, c = 0.5 + rng.random(), (rng.random(3) - 0.5) * 0.2
        v = np.append(c, 1.0)
        J = mass * np.outer(v, v)
        S = J[:3, :3]
        I = np.trace(S) * np.eye(3) - S
        truth += [J[3, 3], *J[:3, 3], I[0, 0], I[0, 1], I[1, 1], I[0, 2], I[1, 2], I[2, 2]]
    A = rng.standard_normal((m, n))
    b = A @ np.array(truth) + 0.3 * rng.standard_normal(m)
    ls = np.linalg.lstsq(A, b, rcond=None)[0]
    if physical(ls, B):
        continue
    problems.append((B, A, b))

with open(tmp + "/problems.txt", "w") as f:
    for B, A, b in problems:
        H, h = A.T @ A, A.T @ b
        f.write("%d %s %s\n" % (B, " ".join("%.17g" % x for x in H.ravel()), " ".join("%.17g" % x for x in h)))
out = subprocess.run([solve], stdin=open(tmp + "/problems.txt"), capture_output=True, text=True, check=True)
lines = out.stdout.split("\n")
worst, bad = 0.0, 0
for i, (B, A, b) in enumerate(problems):
    n = 10 * B
    H, h = A.T @ A, A.T @ b
    R = np.linalg.cholesky(H).T
    c = np.linalg.solve(R.T, h)
    # x = [theta, t]: minimise t with (t, R theta - c) in the second-order
    # cone, so t = ||R theta - c||, and one 4 x 4 LMI J_k(theta) >= 0 per body
    rows = [np.zeros((n + 1, n + 1))]
    rows[0][0, n] = -1
    rows[0][1:, :n] = -R
    hq = np.concatenate(([0.0], -c))
    Gs = [rows[0]]
    hv = [hq]
    for k in range(B):
        G = np.zeros((16, n + 1))
        for j in range(10):
            G[:, 10 * k + j] = -E[j].ravel(order="F")
        Gs.append(G)
        hv.append(np.zeros(16))
    cost = np.zeros(n + 1)
    cost[n] = 1
    dims = {"l": 0, "q": [n + 1], "s": [4] * B}
    # tight tolerances first; CVXOPT's scaling can break down near the end
    # (a square root of a negative), then its defaults (1e-7)
    for tol in (1e-10, 1e-9, 1e-8, None):
        opts = {"abstol": tol, "reltol": tol, "feastol": tol} if tol else {}
        solvers.options.update(opts if tol else {"abstol": 1e-7, "reltol": 1e-6, "feastol": 1e-7})
        try:
            sol = solvers.conelp(matrix(cost), matrix(np.vstack(Gs)), matrix(np.concatenate(hv)), dims)
            if sol["status"] == "optimal":
                break
        except (ValueError, ZeroDivisionError, ArithmeticError):
            sol = {"status": "failed", "x": matrix(np.zeros(n + 1))}
    x = np.array(sol["x"]).ravel()[:n]
    r_sdp = np.sum((A @ x - b) ** 2)
    f = lines[i].split()
    st, ours = int(f[0]), np.array([float(v) for v in f[1:]])
    r_ours = np.sum((A @ ours - b) ** 2)
    rel = abs(r_ours - r_sdp) / r_sdp
    worst = max(worst, rel)
    ok = st == 0 and rel <= 1e-6 and physical(ours, B, 1e-9) and sol["status"] == "optimal"
    if not ok:
        bad += 1
        print("problem %d (%d bodies): status %d, sdp %s, residual %.12g against the SDP's %.12g" %
              (i, B, st, sol["status"], r_ours, r_sdp))
print("pcls against CVXOPT's SDP on %d problems with a non-physical unconstrained solution: "
      "%d disagree; worst relative difference of the residual %.2g" % (len(problems), bad, worst))
sys.exit(1 if bad else 0)
PYEOF
rc=$?
cat "$tmp/oracle.out"
check "pcls agrees with an SDP solver on 100 problems (1e-6 relative in the residual)" test $rc -eq 0
finish
